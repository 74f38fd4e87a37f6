package dev.cabinet.http;

import java.time.Instant;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import dev.cabinet.decision.Decision;
import dev.cabinet.eventlog.Appended;
import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventLog;
import io.smallrye.mutiny.Uni;

/**
 * The one effectful step after a command's decision: an accepted event is appended to the log and answered, a refusal
 * becomes its problem. Resources read the view and decide; this is where that turns into the log and HTTP.
 */
@ApplicationScoped
public class CommandAnswers {

    private final EventLog log;

    CommandAnswers(EventLog log) {
        this.log = log;
    }

    /**
     * The id of a resource this command creates: with an Idempotency-Key, the same one on every retry of the request
     * (see {@link EventLog#newId()}), so a retry after an unknown outcome cannot create a second resource.
     */
    public String newId() {
        return log.newId();
    }

    /**
     * When this command happened, as its event records it: with an Idempotency-Key, when the key was first reserved,
     * so that a retry writes the same event (a comment's time is part of its key).
     */
    public Instant now() {
        return log.now();
    }

    /** Appends an accepted event and answers 202 with {@code id} and {@code Location}; nothing else is expected. */
    public Uni<Response> accepted(Decision decision, String actor, String id, String location) {
        return accepted(decision, actor, appended -> Accepted.response(appended, id, location));
    }

    /** Appends an accepted event and answers it with {@code accepted}, for a command that never decides "unchanged". */
    public Uni<Response> accepted(Decision decision, String actor, Function<Appended, Response> accepted) {
        return answer(decision, actor, accepted, () -> {
            throw new IllegalStateException("this command appends or refuses, yet it decided " + decision);
        });
    }

    /** Appends an accepted event and answers with {@code accepted}; a decision that changes nothing, {@code unchanged}. */
    public Uni<Response> answer(Decision decision, String actor, Function<Appended, Response> accepted,
            Supplier<Response> unchanged) {
        if (decision instanceof Decision.Accept<?> accept) {
            return append(accept, actor).map(accepted);
        }
        if (decision instanceof Decision.Refuse refuse) {
            return Uni.createFrom().failure(Problems.of(refuse.refusal()));
        }
        return Uni.createFrom().item(unchanged);
    }

    private <E extends DomainEvent> Uni<Appended> append(Decision.Accept<E> accept, String actor) {
        return log.append(accept.type(), accept.event(), actor);
    }
}
