package dev.cabinet.http;

import java.net.URI;

import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.eventlog.Appended;

/**
 * The 202 answer to a command: the log acknowledged its event. {@code position} is the consistency token
 * ({@code topic:partition:offset}); {@code id} is the id of the resource the command created or changed, which
 * {@code Location} points at.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Accepted(String eventId, String type, String position, String id) implements AcceptedAnswer {

    public static Response response(Appended appended, String id, String location) {
        return Response.accepted(new Accepted(appended.eventId(), appended.type(), appended.position().token(), id))
                .location(URI.create(location))
                .build();
    }
}
