package dev.cabinet.post;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import dev.cabinet.table.query.Page;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A post's metadata as the API shows it; {@code comments} only when asked for ({@code ?include=comments}). A feed
 * entry has no {@code body}: the feed index leaves bodies out. {@code likeCount} and {@code commentCount} are sums of the
 * post's counter shards, read with it; the entity tag is the post item's, which likes do not change (see docs/design.md,
 * "Likes"), and with comments the post's and the comments' shown.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PostView(String id, String authorId, String authorName, String title, String body, String status,
        String createdAt, String publishedAt, long commentCount, long likeCount, Page<CommentView> comments,
        @JsonIgnore String etag) implements Tagged {

    static PostView of(Map<String, AttributeValue> item) {
        return new PostView(Items.string(item, Attributes.POST_ID), Items.string(item, Attributes.AUTHOR_ID),
                Items.string(item, Attributes.AUTHOR_NAME), Items.string(item, Attributes.TITLE),
                Items.string(item, Attributes.BODY), Items.string(item, Attributes.STATUS),
                Items.string(item, Attributes.CREATED_AT), Items.string(item, Attributes.PUBLISHED_AT),
                0, 0, null, ETags.of(item));
    }

    /** The post with a page of its comments, tagged as that whole representation ({@link ETags#of(List)}). */
    PostView withComments(Page<CommentView> page, String pageEtag) {
        return new PostView(id, authorId, authorName, title, body, status, createdAt, publishedAt, commentCount,
                likeCount, page, pageEtag);
    }

    /** The post with its counts: the sums of its counter shards among these items read with it. */
    PostView withCounts(List<Map<String, AttributeValue>> counters) {
        return new PostView(id, authorId, authorName, title, body, status, createdAt, publishedAt,
                Shards.sum(counters, KeyPlan.POST_COUNTER, Attributes.COMMENT_COUNT),
                Shards.sum(counters, KeyPlan.POST_COUNTER, Attributes.LIKE_COUNT), comments, etag);
    }

    boolean isPublished() {
        return PostStatus.PUBLISHED.equals(status);
    }
}
