package dev.cabinet.post;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Values;
import dev.cabinet.table.CountersConfig;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what comment events do: a comment goes into its post's partition (patterns 3 and 4) with the author's name
 * and avatar copied (and their second look), with entries in GSI1 (by id) and GSI2 (the author's comments, pattern 6).
 * The post is the stream's root; its commentCount is on the post's counter shards ({@link KeyPlan#POST_COUNTER}, the
 * shard from the comment's id), changed by a write of the post's own stream, which the executor guards by the stream's
 * version: counted once per event however often it is delivered or redone, with no round of its own (it goes out with
 * the comment's write).
 */
@ApplicationScoped
public class CommentProjector implements Projector<CommentEvent> {

    private final int shards;

    @Inject
    CommentProjector(CountersConfig counters) {
        this(counters.shards());
    }

    CommentProjector(int shards) {
        this.shards = shards;
    }

    @Override
    public List<EventType<? extends CommentEvent>> eventTypes() {
        return List.of(CommentEvent.ADDED, CommentEvent.DELETED);
    }

    @Override
    public StreamTarget target(CommentEvent event) {
        return StreamTarget.of(KeyPlan.POST_STREAM, event.postId());
    }

    @Override
    public List<Key> needs(CommentEvent event) {
        // An addition reads its comment too: one already there is a second record of the same addition.
        return event instanceof CommentAdded added
                ? List.of(KeyPlan.USER_PROFILE.key(added.authorId()), key(added.postId(), added.createdAt(),
                        added.commentId()))
                : List.of(key(event.postId(), ((CommentDeleted) event).createdAt(), event.commentId()));
    }

    @Override
    public WritePlan decide(CommentEvent event, Reads reads) {
        if (event instanceof CommentAdded added) {
            Key comment = key(added.postId(), added.createdAt(), added.commentId());
            if (reads.item(comment).isPresent() && !reads.writtenByThisEvent(comment)) {
                // The same addition recorded again further on (a retry with its Idempotency-Key after an unknown
                // outcome, its ids and time the first attempt's) beyond the root's recent event ids: counted once.
                return WritePlan.onRoot();
            }
            return added(added, reads.item(KeyPlan.USER_PROFILE.key(added.authorId())))
                    .decidesAlikeAfterWriting(comment);
        }
        CommentDeleted deleted = (CommentDeleted) event;
        Key comment = key(deleted.postId(), deleted.createdAt(), deleted.commentId());
        // Counted off only if it is still there: deleting a comment twice changes the count once.
        WritePlan plan = reads.item(comment).isPresent()
                ? WritePlan.onRoot().write(PostCounters.count(deleted.postId(), deleted.commentId(), shards,
                        Attributes.COMMENT_COUNT, -1))
                : WritePlan.onRoot();
        return plan.delete(comment);
    }

    private WritePlan added(CommentAdded e, Optional<Map<String, AttributeValue>> author) {
        Key profile = KeyPlan.USER_PROFILE.key(e.authorId());
        ItemUpdate comment = KeyPlan.COMMENT_AUTHOR.copyOnto(KeyPlan.COMMENT.write(Values.of(
                Attributes.COMMENT_ID, e.commentId(),
                Attributes.POST_ID, e.postId(),
                Attributes.AUTHOR_ID, e.authorId(),
                Attributes.USER_ID, e.authorId(),
                Attributes.TEXT, e.text(),
                Attributes.CREATED_AT, e.createdAt())), author);
        return WritePlan.onRoot()
                .write(comment)
                .write(PostCounters.count(e.postId(), e.commentId(), shards, Attributes.COMMENT_COUNT, 1))
                .then(new CopyCheck(profile, KeyPlan.COMMENT_AUTHOR.versionOf(author), List.of(comment.key())));
    }

    private static Key key(String postId, String createdAt, String commentId) {
        return KeyPlan.COMMENT.keyFrom(Values.of(Attributes.POST_ID, postId, Attributes.CREATED_AT, createdAt,
                Attributes.COMMENT_ID, commentId));
    }
}
