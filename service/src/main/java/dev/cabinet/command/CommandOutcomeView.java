package dev.cabinet.command;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.eventlog.EventSends;
import dev.cabinet.query.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An outcome of an event: {@code status} is {@code rejected}, {@code parked} or {@code discarded} (recorded by the
 * projector), or {@code pending}, {@code appended}, {@code applied} or {@code never-appended} (from this instance's
 * sends); {@code reason} says why.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CommandOutcomeView(String eventId, String type, String subject, String status, String reason,
        String position, String decidedAt) {

    static CommandOutcomeView of(Map<String, AttributeValue> item) {
        return new CommandOutcomeView(Items.string(item, "eventId"), Items.string(item, "eventType"),
                Items.string(item, "subject"), Items.string(item, "status"), Items.string(item, "reason"),
                Items.string(item, "position"), Items.string(item, "decidedAt"));
    }

    static CommandOutcomeView of(EventSends.Sent sent, String status, String reason) {
        return new CommandOutcomeView(sent.eventId(), sent.type(), sent.key(), status, reason,
                sent.position() == null ? null : sent.position().token(), null);
    }
}
