package dev.cabinet.metrics;

import java.util.Map;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A sample as the API shows it. */
public record MetricView(String timestamp, double cpu, double memory, long requests) {

    static MetricView of(Map<String, AttributeValue> item) {
        return new MetricView(Items.string(item, Attributes.TIMESTAMP),
                Double.parseDouble(item.get(Attributes.CPU).n()), Double.parseDouble(item.get(Attributes.MEMORY).n()),
                Items.number(item, Attributes.REQUESTS));
    }
}
