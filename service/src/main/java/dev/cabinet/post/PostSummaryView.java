package dev.cabinet.post;

import java.util.Map;

import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** One entry of a user's post list. */
public record PostSummaryView(String id, String title, String status, String createdAt) {

    static PostSummaryView of(Map<String, AttributeValue> item) {
        return new PostSummaryView(Items.string(item, "postId"), Items.string(item, "title"), Items.string(item, "status"),
                Items.string(item, "createdAt"));
    }
}
