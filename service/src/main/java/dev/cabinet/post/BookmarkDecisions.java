package dev.cabinet.post;

import java.util.Optional;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.post.BookmarkEvent.BookmarkRemoved;
import dev.cabinet.post.BookmarkEvent.PostBookmarked;
import dev.cabinet.user.Registration;

/**
 * The rules of bookmarks (pure): a command and what its reads found give the event, a refusal or no change; and who
 * may read a user's bookmarks.
 */
public final class BookmarkDecisions {

    /** The caller ({@code userId}) saves or removes a bookmark of a post at {@code now}; no decision reads a clock. */
    public record BookmarkCommand(String postId, String userId, String now) {
    }

    /** What the command's reads found: whether the post exists, and whether the caller has it bookmarked now. */
    public record Seen(boolean postExists, boolean bookmarked) {
    }

    private BookmarkDecisions() {
    }

    /**
     * A registered user bookmarks an existing post. Whether it is bookmarked already is not asked: the read model may
     * not have applied the caller's last save or removal yet (a quick toggle), and only the log's order may decide which
     * one holds; the projector makes a save of a saved bookmark change nothing.
     */
    public static Decision save(BookmarkCommand command, boolean postExists, boolean registered) {
        if (!postExists) {
            return Decision.refuse(Refusal.notFound("post", command.postId()));
        }
        return Registration.required(registered, command.userId(), "bookmarking posts", () -> Decision.accept(
                BookmarkEvent.BOOKMARKED, new PostBookmarked(command.postId(), command.userId(), command.now())));
    }

    /**
     * A user removes a bookmark of a post: appended for an existing post whatever the read model says (as a save is),
     * and for a deleted one while its bookmark is still seen; one that is neither changes nothing (its post's deletion
     * took the bookmark, or there never was one), so no event is written for a post id that names nothing.
     */
    public static Decision remove(BookmarkCommand command, Seen seen) {
        return seen.postExists() || seen.bookmarked()
                ? Decision.accept(BookmarkEvent.REMOVED,
                        new BookmarkRemoved(command.postId(), command.userId(), command.now()))
                : Decision.unchanged();
    }

    /** Bookmarks are private: only their user reads them ({@code reader}, the caller; {@code owner}, the path's user). */
    public static Optional<Refusal> read(String reader, String owner) {
        return reader.equals(owner) ? Optional.empty()
                : Optional.of(Refusal.forbidden("bookmarks are private: user " + reader + " may not read those of user "
                        + owner));
    }
}
