package dev.cabinet.http;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The 503 problem of a command whose event the log did not acknowledge in time: RFC 9457 members plus the event's id,
 * the id of the resource the command creates (if it creates one) and where its outcome can be read later.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UnknownOutcome(String type, String title, int status, String detail, String instance, String eventId,
        String id, String outcome) {

    public static final String TYPE = Problems.TYPE_PREFIX + "outcome-unknown";
}
