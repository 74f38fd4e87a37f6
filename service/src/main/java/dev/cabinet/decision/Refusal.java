package dev.cabinet.decision;

/**
 * Why a command was refused, without HTTP: the web layer answers each {@link Kind} with its problem type and status.
 * {@code field} names the offending input of an {@link Kind#INVALID} refusal, and is null otherwise.
 */
public record Refusal(Kind kind, String detail, String field) {

    /** The kinds of refusal a client can tell apart (and retry differently). */
    public enum Kind {
        /** The command names something that does not exist. */
        NOT_FOUND,
        /** The caller may not do this to what exists. */
        FORBIDDEN,
        /** The command does not fit the current state; another state might accept it. */
        CONFLICT,
        /** An input is out of bounds, whatever the state. */
        INVALID,
        /** The command names something that existed and was erased for good. */
        GONE
    }

    /** "{@code what id} does not exist", the one wording every 404 uses. */
    public static Refusal notFound(String what, String id) {
        return new Refusal(Kind.NOT_FOUND, what + " " + id + " does not exist", null);
    }

    /** "{@code what id} was erased". */
    public static Refusal gone(String what, String id) {
        return new Refusal(Kind.GONE, what + " " + id + " was erased", null);
    }

    public static Refusal forbidden(String detail) {
        return new Refusal(Kind.FORBIDDEN, detail, null);
    }

    public static Refusal conflict(String detail) {
        return new Refusal(Kind.CONFLICT, detail, null);
    }

    /** {@code field} is refused for {@code reason} (e.g. "must be at most 10 bytes"). */
    public static Refusal invalid(String field, String reason) {
        return new Refusal(Kind.INVALID, reason, field);
    }
}
