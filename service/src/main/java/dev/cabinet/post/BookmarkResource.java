package dev.cabinet.post;

import java.util.Map;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import dev.cabinet.auth.Caller;
import dev.cabinet.decision.Decision;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.PageParameters;
import dev.cabinet.http.Problems;
import dev.cabinet.post.BookmarkDecisions.BookmarkCommand;
import dev.cabinet.post.BookmarkDecisions.Seen;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The caller saves ({@code PUT}) or removes ({@code DELETE}) a bookmark of a post: each answers 202 like every command,
 * a repeat too (the read model may lag the caller's last toggle; the projector makes a repeat change nothing). The
 * rules are in {@link BookmarkDecisions}; the resource reads and answers.
 */
@Deadline
@Path("/posts/{id}/bookmarks")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class BookmarkResource {

    /** The caller's bookmark of a post, as a removal that changed nothing finds it. */
    public record BookmarkState(String postId, String userId, boolean bookmarked) {
    }

    /** One of a user's bookmarks. */
    public record BookmarkView(String postId, String bookmarkedAt) {

        static BookmarkView of(Map<String, AttributeValue> item) {
            return new BookmarkView(Items.string(item, Attributes.POST_ID), Items.string(item, Attributes.CREATED_AT));
        }
    }

    private final CommandAnswers answers;
    private final Caller caller;
    private final UserQueries users;
    private final PostQueries posts;
    private final TableReader table;

    BookmarkResource(CommandAnswers answers, Caller caller, UserQueries users, PostQueries posts, TableReader table) {
        this.answers = answers;
        this.caller = caller;
        this.users = users;
        this.posts = posts;
        this.table = table;
    }

    @PUT
    @Operation(description = "Saves a post to the caller's bookmarks; a save of a saved bookmark is appended too, and "
            + "the projector changes nothing for it.")
    public Uni<Response> bookmarkPost(@PathParam("id") String id) {
        String actor = caller.id();
        BookmarkCommand command = new BookmarkCommand(Ids.require("id", id), actor, Timestamps.format(answers.now()));
        return Uni.combine().all().unis(posts.findPost(id), users.isRegistered(actor)).asTuple()
                .chain(read -> answers.accepted(BookmarkDecisions.save(command, read.getItem1().isPresent(),
                        read.getItem2()), actor, appended -> Accepted.response(appended, id, "/posts/" + id)));
    }

    @DELETE
    @APIResponse(responseCode = "200", description = "Neither the post nor a bookmark of it is there: nothing changed",
            content = @Content(schema = @Schema(implementation = BookmarkState.class)))
    @Operation(description = "Removes a post from the caller's bookmarks; appended for an existing post whatever it "
            + "finds; for a deleted post whose bookmark is gone: 200, nothing changes.")
    public Uni<Response> removeBookmark(@PathParam("id") String id) {
        String actor = caller.id();
        BookmarkCommand command = new BookmarkCommand(Ids.require("id", id), actor, Timestamps.format(answers.now()));
        return Uni.combine().all().unis(posts.findPost(id), bookmarked(id, actor), users.requireNotErased(actor))
                .asTuple().chain(read -> answer(BookmarkDecisions.remove(command, new Seen(read.getItem1().isPresent(),
                        read.getItem2())), actor, id));
    }

    private Uni<Response> answer(Decision decision, String actor, String postId) {
        return answers.answer(decision, actor, appended -> Accepted.response(appended, postId, "/posts/" + postId),
                () -> Response.ok(new BookmarkState(postId, actor, false)).build());
    }

    private Uni<Boolean> bookmarked(String postId, String userId) {
        return table.get(KeyPlan.BOOKMARK.key(postId, userId)).map(found -> found.map(item -> Items.isTrue(item,
                Attributes.BOOKMARKED)).orElse(false));
    }

    /**
     * The posts a user bookmarked, newest first (pattern 25: GSI2 BOOKMARKER#u, where only current bookmarks have an
     * entry). Bookmarks are private: only the user themself reads them.
     */
    @Deadline
    @Path("/users/{id}/bookmarks")
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    public static class OfUser {

        private final TableReader table;
        private final PageRequests pages;
        private final Caller caller;

        OfUser(TableReader table, PageRequests pages, Caller caller) {
            this.table = table;
            this.pages = pages;
            this.caller = caller;
        }

        @GET
        @Operation(description = "The posts the caller bookmarked, newest first; another user's bookmarks: 403.")
        public Uni<Page<BookmarkView>> listBookmarksOfUser(@PathParam("id") String id, @BeanParam PageParameters page) {
            BookmarkDecisions.read(caller.id(), Ids.require("id", id)).ifPresent(refusal -> {
                throw Problems.of(refusal);
            });
            return table.query(KeyPlan.USER_BOOKMARKS.query(id), pages.of(page.limit(), page.cursor()))
                    .map(result -> result.map(BookmarkView::of));
        }
    }
}
