package dev.cabinet.folder;

import java.util.Optional;

/** Where a file's content lives: a bucket and a key, written in events and items as {@code s3://bucket/key}. */
public record ObjectAddress(String bucket, String key) {

    private static final String SCHEME = "s3://";

    /** The address a {@code contentUrl} names; empty when it is not an {@code s3://bucket/key} URL. */
    public static Optional<ObjectAddress> parse(String contentUrl) {
        if (contentUrl == null || !contentUrl.startsWith(SCHEME)) {
            return Optional.empty();
        }
        String rest = contentUrl.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new ObjectAddress(rest.substring(0, slash), rest.substring(slash + 1)));
    }

    @Override
    public String toString() {
        return SCHEME + bucket + "/" + key;
    }
}
