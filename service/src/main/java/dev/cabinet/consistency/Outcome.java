package dev.cabinet.consistency;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.Accepted;

/** A command's answer after a {@code Prefer: wait}: the 202's fields and whether the projection applied it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Outcome(String eventId, String type, String position, String id, String outcome, String detail) {

    static Outcome of(Accepted accepted, String outcome, String detail) {
        return new Outcome(accepted.eventId(), accepted.type(), accepted.position(), accepted.id(), outcome, detail);
    }
}
