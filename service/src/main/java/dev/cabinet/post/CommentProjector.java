package dev.cabinet.post;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what comment events do: a comment goes into its post's partition (patterns 3 and 4) with the author's name
 * and avatar copied (and their second look), with entries in GSI1 (by id) and GSI2 (the author's comments, pattern 6).
 * The post is the stream's root: its commentCount changes in the write that records the event on it, so it stays exact
 * under redelivery.
 */
@ApplicationScoped
public class CommentProjector implements Projector<CommentEvent> {

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
        return event instanceof CommentAdded added ? List.of(KeyPlan.USER_PROFILE.key(added.authorId()))
                : List.of(key(event.postId(), ((CommentDeleted) event).createdAt(), event.commentId()));
    }

    @Override
    public WritePlan decide(CommentEvent event, Reads reads) {
        if (event instanceof CommentAdded added) {
            return added(added, reads.item(KeyPlan.USER_PROFILE.key(added.authorId())));
        }
        CommentDeleted deleted = (CommentDeleted) event;
        Key comment = key(deleted.postId(), deleted.createdAt(), deleted.commentId());
        // Counted off only if it is still there: deleting a comment twice changes the count once.
        WritePlan plan = reads.item(comment).isPresent()
                ? WritePlan.onRoot(ItemUpdate.of(KeyPlan.POST.key(deleted.postId()))
                        .increment(Attributes.COMMENT_COUNT, -1))
                : WritePlan.onRoot();
        return plan.delete(comment);
    }

    private static WritePlan added(CommentAdded e, Optional<Map<String, AttributeValue>> author) {
        Key profile = KeyPlan.USER_PROFILE.key(e.authorId());
        ItemUpdate comment = KeyPlan.COMMENT_AUTHOR.copyOnto(KeyPlan.COMMENT.write(Values.of(
                Attributes.COMMENT_ID, e.commentId(),
                Attributes.POST_ID, e.postId(),
                Attributes.AUTHOR_ID, e.authorId(),
                Attributes.USER_ID, e.authorId(),
                Attributes.TEXT, e.text(),
                Attributes.CREATED_AT, e.createdAt())), author);
        return WritePlan.onRoot(ItemUpdate.of(KeyPlan.POST.key(e.postId())).increment(Attributes.COMMENT_COUNT, 1))
                .write(comment)
                .then(new CopyCheck(profile, KeyPlan.COMMENT_AUTHOR.versionOf(author), List.of(comment.key())));
    }

    private static Key key(String postId, String createdAt, String commentId) {
        return KeyPlan.COMMENT.keyFrom(Values.of(Attributes.POST_ID, postId, Attributes.CREATED_AT, createdAt,
                Attributes.COMMENT_ID, commentId));
    }
}
