package dev.cabinet.post;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A comment as the API shows it, with its author's current name and avatar. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CommentView(String id, String postId, String authorId, String authorName, String authorAvatar, String text,
        String createdAt) {

    static CommentView of(Map<String, AttributeValue> item) {
        return new CommentView(Items.string(item, "commentId"), Items.string(item, "postId"),
                Items.string(item, "authorId"), Items.string(item, "authorName"), Items.string(item, "authorAvatar"),
                Items.string(item, "text"), Items.string(item, "createdAt"));
    }
}
