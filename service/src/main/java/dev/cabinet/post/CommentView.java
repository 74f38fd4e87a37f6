package dev.cabinet.post;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A comment as the API shows it, with its author's current name and avatar. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CommentView(String id, String postId, String authorId, String authorName, String authorAvatar, String text,
        String createdAt) {

    static CommentView of(Map<String, AttributeValue> item) {
        return new CommentView(Items.string(item, Attributes.COMMENT_ID), Items.string(item, Attributes.POST_ID),
                Items.string(item, Attributes.AUTHOR_ID), Items.string(item, Attributes.AUTHOR_NAME),
                Items.string(item, Attributes.AUTHOR_AVATAR), Items.string(item, Attributes.TEXT),
                Items.string(item, Attributes.CREATED_AT));
    }
}
