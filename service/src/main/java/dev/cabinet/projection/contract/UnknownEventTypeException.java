package dev.cabinet.projection.contract;

import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A record whose {@code ce_type} no projector handles, such as a newer version of an event than this projector knows:
 * parked until a projector that knows it is deployed, which resumes the key itself ({@code deadletter/UpgradeResume}).
 */
public final class UnknownEventTypeException extends UndecodableEventException {

    /** How every such reason begins: what tells a parked key that only a newer projector can apply it. */
    public static final String REASON = "no projector handles event type ";
    private static final Pattern VERSIONED = Pattern.compile("(.+)\\.v(\\d+)");

    UnknownEventTypeException(String type, Collection<String> known) {
        super(reason(type, known));
    }

    /**
     * The reason (pure): the type, and for a newer version of a type this projector reads, which versions it reads, so
     * that an operator sees an upgrade is due rather than a broken producer.
     */
    static String reason(String type, Collection<String> known) {
        Matcher versioned = VERSIONED.matcher(type);
        if (!versioned.matches()) {
            return REASON + type;
        }
        String base = versioned.group(1);
        int version = Integer.parseInt(versioned.group(2));
        List<String> older = known.stream().filter(name -> {
            Matcher other = VERSIONED.matcher(name);
            return other.matches() && other.group(1).equals(base) && Integer.parseInt(other.group(2)) < version;
        }).sorted().toList();
        return older.isEmpty() ? REASON + type : REASON + type + ": a newer version than this projector reads ("
                + String.join(", ", older) + "); the key resumes when a projector that reads it starts";
    }
}
