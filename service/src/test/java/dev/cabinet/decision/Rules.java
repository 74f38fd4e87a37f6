package dev.cabinet.decision;

import org.junit.jupiter.params.provider.Arguments;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;

/**
 * Rows of the decision tables: a rule as a sentence, what the decision function returned, and what the rule says it
 * must. Decisions are values, so a row compares them whole (event fields, refusal kind and wording).
 */
public final class Rules {

    /** A fixed instant: decisions take the clock's reading as an argument, so tables can name it. */
    public static final String NOW = "2026-06-01T12:00:00.000Z";

    private Rules() {
    }

    public static Arguments rule(String sentence, Decision decided, Decision expected) {
        return Arguments.of(sentence, decided, expected);
    }

    public static <E extends DomainEvent> Decision appends(EventType<E> type, E event) {
        return Decision.accept(type, event);
    }

    public static Decision notFound(String detail) {
        return Decision.refuse(new Refusal(Refusal.Kind.NOT_FOUND, detail, null));
    }

    public static Decision forbidden(String detail) {
        return Decision.refuse(Refusal.forbidden(detail));
    }

    public static Decision conflict(String detail) {
        return Decision.refuse(Refusal.conflict(detail));
    }

    public static Decision invalid(String field, String reason) {
        return Decision.refuse(Refusal.invalid(field, reason));
    }
}
