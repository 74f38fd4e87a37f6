package dev.cabinet.post;

import java.util.Map;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** One entry of a user's post list. */
public record PostSummaryView(String id, String title, String status, String createdAt) {

    static PostSummaryView of(Map<String, AttributeValue> item) {
        return new PostSummaryView(Items.string(item, Attributes.POST_ID), Items.string(item, Attributes.TITLE),
                Items.string(item, Attributes.STATUS), Items.string(item, Attributes.CREATED_AT));
    }
}
