package dev.cabinet.http;

import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cabinet.table.Key;

/** A {@link TaggedResource} for paths of the form {@code /things/{id}[/suffix]} whose item is keyed by that id. */
public record TaggedPath(Pattern pattern, Function<String, Key> item) implements TaggedResource {

    /** {@code prefix} like {@code /users/}; {@code suffixes} are the optional command sub-paths, like {@code publish}. */
    public static TaggedPath of(String prefix, Function<String, Key> item, String... suffixes) {
        String tail = suffixes.length == 0 ? "" : "(?:/(?:" + String.join("|", suffixes) + "))?";
        return new TaggedPath(Pattern.compile("^" + Pattern.quote(prefix) + "([^/]+)" + tail + "$"), item);
    }

    @Override
    public Optional<Key> itemChangedBy(String path) {
        Matcher matcher = pattern.matcher(path);
        return matcher.matches() ? Optional.of(item.apply(matcher.group(1))) : Optional.empty();
    }
}
