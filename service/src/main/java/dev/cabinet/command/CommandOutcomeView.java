package dev.cabinet.command;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.eventlog.EventSends;
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
        return new CommandOutcomeView(Items.string(item, Attributes.EVENT_ID),
                Items.string(item, Attributes.EVENT_TYPE), Items.string(item, Attributes.SUBJECT),
                Items.string(item, Attributes.STATUS), Items.string(item, Attributes.REASON),
                Items.string(item, Attributes.POSITION), Items.string(item, Attributes.DECIDED_AT));
    }

    static CommandOutcomeView of(EventSends.Sent sent, String status, String reason) {
        return new CommandOutcomeView(sent.eventId(), sent.type(), sent.key(), status, reason,
                sent.position() == null ? null : sent.position().token(), null);
    }
}
