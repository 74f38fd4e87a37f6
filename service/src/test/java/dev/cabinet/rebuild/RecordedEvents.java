package dev.cabinet.rebuild;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import dev.cabinet.table.Key;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Events and items as a stream reset's unit tests hand them in: made here, no broker or store. */
final class RecordedEvents {

    private RecordedEvents() {
    }

    /** A binary-mode record of the key with this event id and JSON data (unparsable data is read as missing). */
    static RecordedEvent event(String topic, String key, long offset, String id, String data) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(topic, 0, offset, key,
                data.getBytes(StandardCharsets.UTF_8));
        record.headers().add("ce_id", id.getBytes(StandardCharsets.UTF_8));
        record.headers().add("content-type", "application/json".getBytes(StandardCharsets.UTF_8));
        return RecordedEvent.of(record);
    }

    /** An item with its key and one string attribute. */
    static Map<String, AttributeValue> item(Key key, String attribute, String value) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributes());
        item.put(attribute, AttributeValue.fromS(value));
        return item;
    }
}
