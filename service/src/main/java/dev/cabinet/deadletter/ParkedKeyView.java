package dev.cabinet.deadletter;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A parked key: where its stream is, why it parked, and (for one key) the events waiting behind it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParkedKeyView(String id, String topic, int partition, String recordKey, long firstOffset,
        long lastParkedOffset, String reason, String eventId, String eventType, String parkedAt,
        List<ParkedEventView> events) {

    static ParkedKeyView of(Map<String, AttributeValue> item, List<ParkedEventView> events) {
        return new ParkedKeyView(Items.string(item, Attributes.PARKED_KEY_ID), Items.string(item, Attributes.TOPIC),
                (int) Items.number(item, Attributes.PARTITION), Items.string(item, Attributes.RECORD_KEY),
                Items.number(item, Attributes.FIRST_OFFSET), Items.number(item, Attributes.LAST_PARKED_OFFSET),
                Items.string(item, Attributes.REASON), Items.string(item, Attributes.EVENT_ID),
                Items.string(item, Attributes.EVENT_TYPE), Items.string(item, Attributes.PARKED_AT), events);
    }

    /** One waiting event, by its position in the log. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ParkedEventView(long offset, String eventId, String eventType, String reason, String parkedAt) {

        static ParkedEventView of(Map<String, AttributeValue> item) {
            return new ParkedEventView(Items.number(item, Attributes.OFFSET), Items.string(item, Attributes.EVENT_ID),
                    Items.string(item, Attributes.EVENT_TYPE), Items.string(item, Attributes.REASON),
                    Items.string(item, Attributes.PARKED_AT));
        }
    }
}
