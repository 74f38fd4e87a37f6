package dev.cabinet.rebuild;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.table.AggregateStream;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which items a customer's stream owns (pure): the record key of {@code cabinet.customers} is the customer id, and the
 * stream owns its whole partition {@code CUSTOMER#{customerId}}, the profile (its root) and every order, each with its
 * GSI1 (by order id) and GSI2 (a day's shard) entries, which DynamoDB drops with the item and writes again with it. All
 * are deleted. Nothing outside the partition is the customer's, and no other stream counts on these items nor they on
 * another's, so no count needs holding: the orders are counted by nobody.
 */
final class CustomerStreamReset implements StreamReset {

    @Override
    public String topic() {
        return Topics.CUSTOMERS;
    }

    @Override
    public AggregateStream stream() {
        return KeyPlan.CUSTOMER_STREAM;
    }

    @Override
    public Optional<String> notAStream(String key, List<RecordedEvent> events) {
        return StreamReset.nameTheKey(key, events, Attributes.CUSTOMER_ID) ? Optional.empty()
                : Optional.of("not a customer's (they do not name " + key + " as their customer)");
    }

    @Override
    public Reset reset(String customerId, List<Map<String, AttributeValue>> partition, List<RecordedEvent> events) {
        String pk = partition(customerId);
        return Reset.deleting(partition.stream().map(Key::of)
                .filter(key -> key.pk().equals(pk) && (KeyPlan.CUSTOMER.matches(key) || KeyPlan.ORDER.matches(key)))
                .toList());
    }

    @Override
    public boolean owns(Map<String, AttributeValue> item) {
        Key key = Key.of(item);
        return KeyPlan.CUSTOMER.matches(key) || KeyPlan.ORDER.matches(key);
    }
}
