package dev.cabinet.http;

import java.util.List;

import dev.cabinet.decision.Refusal;

/** The problem types Cabinet answers with, as factories; {@code type} URIs are stable and documented in docs/api.md. */
public final class Problems {

    public static final String TYPE_PREFIX = "urn:cabinet:problem:";

    private Problems() {
    }

    public static ProblemException badRequest(String field, String message) {
        return new ProblemException(400, TYPE_PREFIX + "validation", "Invalid request", field + " " + message,
                List.of(new Problem.FieldError(field, message)));
    }

    public static ProblemException notFound(String what, String id) {
        return new ProblemException(404, TYPE_PREFIX + "not-found", "Not found", what + " " + id + " does not exist", null);
    }

    /** A 404 whose detail says more than "x does not exist". */
    public static ProblemException notFound(String detail) {
        return new ProblemException(404, TYPE_PREFIX + "not-found", "Not found", detail, null);
    }

    public static ProblemException forbidden(String detail) {
        return new ProblemException(403, TYPE_PREFIX + "forbidden", "Forbidden", detail, null);
    }

    public static ProblemException conflict(String detail) {
        return new ProblemException(409, TYPE_PREFIX + "conflict", "Conflict", detail, null);
    }

    /** What was there is gone for good (an erased person). */
    public static ProblemException gone(String detail) {
        return new ProblemException(410, TYPE_PREFIX + "gone", "Gone", detail, null);
    }

    /** A command's refusal as the problem its kind stands for. */
    public static ProblemException of(Refusal refusal) {
        return switch (refusal.kind()) {
            case NOT_FOUND -> notFound(refusal.detail());
            case FORBIDDEN -> forbidden(refusal.detail());
            case CONFLICT -> conflict(refusal.detail());
            case GONE -> gone(refusal.detail());
            case INVALID -> badRequest(refusal.field(), refusal.detail());
        };
    }
}
