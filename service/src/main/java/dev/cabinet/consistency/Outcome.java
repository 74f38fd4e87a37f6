package dev.cabinet.consistency;

import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.AcceptedAnswer;

/**
 * A command's answer after a {@code Prefer: wait}: the 202's fields (its own ones, such as a file's upload link,
 * included) and whether the projection applied it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Outcome(String eventId, String type, String position, String id, String outcome, String detail,
        @Schema(hidden = true) @JsonAnyGetter Map<String, Object> more) {

    static Outcome of(AcceptedAnswer accepted, String outcome, String detail) {
        return new Outcome(accepted.eventId(), accepted.type(), accepted.position(), accepted.id(), outcome, detail,
                accepted.more());
    }
}
