package dev.cabinet.post;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.query.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A post's metadata as the API shows it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PostView(String id, String authorId, String authorName, String title, String body, String status,
        String createdAt, String publishedAt, long commentCount) {

    static PostView of(Map<String, AttributeValue> item) {
        return new PostView(Items.string(item, "postId"), Items.string(item, "authorId"), Items.string(item, "authorName"),
                Items.string(item, "title"), Items.string(item, "body"), Items.string(item, "status"),
                Items.string(item, "createdAt"), Items.string(item, "publishedAt"), Items.number(item, "commentCount"));
    }

    boolean isPublished() {
        return PostStatus.PUBLISHED.equals(status);
    }
}
