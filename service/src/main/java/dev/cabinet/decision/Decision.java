package dev.cabinet.decision;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;

/**
 * What a command decides from the current view: an event to append, a refusal, or nothing to do. A value, so that the
 * rules that produce it are plain functions, tested without the log, the table or HTTP.
 */
public sealed interface Decision permits Decision.Accept, Decision.Refuse, Decision.Unchanged {

    static <E extends DomainEvent> Decision accept(EventType<E> type, E event) {
        return new Accept<>(type, event);
    }

    static Decision refuse(Refusal refusal) {
        return new Refuse(refusal);
    }

    static Decision unchanged() {
        return Unchanged.INSTANCE;
    }

    /** The command fits: append {@code event} as {@code type}. */
    record Accept<E extends DomainEvent>(EventType<E> type, E event) implements Decision {
    }

    /** The command does not fit the view; nothing is appended. */
    record Refuse(Refusal refusal) implements Decision {
    }

    /** The view already is what the command asks for (e.g. joining a group one is in): nothing to append. */
    enum Unchanged implements Decision {
        INSTANCE
    }
}
