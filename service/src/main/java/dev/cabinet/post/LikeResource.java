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

import dev.cabinet.auth.Caller;
import dev.cabinet.decision.Decision;
import dev.cabinet.http.Accepted;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.post.LikeDecisions.LikeCommand;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.Attributes;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.user.UserQueries;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The caller likes ({@code PUT}) or unlikes ({@code DELETE}) a post: each answers 202 like every command, a repeat too
 * (the read model may lag the caller's last toggle; the projector makes a repeat change nothing). The rules are in
 * {@link LikeDecisions}; the resource reads and answers.
 */
@Deadline
@Path("/posts/{id}/likes")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class LikeResource {

    /** One of a user's likes. */
    public record LikeView(String postId, String likedAt) {

        static LikeView of(Map<String, AttributeValue> item) {
            return new LikeView(Items.string(item, Attributes.POST_ID), Items.string(item, Attributes.CREATED_AT));
        }
    }

    private final CommandAnswers answers;
    private final Caller caller;
    private final UserQueries users;
    private final PostQueries posts;

    LikeResource(CommandAnswers answers, Caller caller, UserQueries users, PostQueries posts) {
        this.answers = answers;
        this.caller = caller;
        this.users = users;
        this.posts = posts;
    }

    @PUT
    @Operation(description = "Likes a post as the caller; a like of a liked post is appended too, and the projector "
            + "changes nothing for it.")
    public Uni<Response> likePost(@PathParam("id") String id) {
        String actor = caller.id();
        LikeCommand command = new LikeCommand(Ids.require("id", id), actor, Timestamps.format(answers.now()));
        return Uni.combine().all().unis(posts.findPost(id), users.isRegistered(actor)).asTuple()
                .chain(read -> answer(LikeDecisions.like(command, read.getItem1().isPresent(), read.getItem2()),
                        actor, id));
    }

    @DELETE
    @Operation(description = "Withdraws the caller's like; withdrawing one that is not there is appended too, and "
            + "the projector changes nothing for it.")
    public Uni<Response> unlikePost(@PathParam("id") String id) {
        String actor = caller.id();
        LikeCommand command = new LikeCommand(Ids.require("id", id), actor, Timestamps.format(answers.now()));
        return Uni.combine().all().unis(posts.findPost(id), users.requireNotErased(actor)).asTuple()
                .chain(read -> answer(LikeDecisions.unlike(command, read.getItem1().isPresent()), actor, id));
    }

    private Uni<Response> answer(Decision decision, String actor, String postId) {
        return answers.accepted(decision, actor, appended -> Accepted.response(appended, postId, "/posts/" + postId));
    }

    /** The posts a user likes, newest like first (pattern 24: GSI2 LIKER#u, where only current likes have an entry). */
    @Deadline
    @Path("/users/{id}/likes")
    @Produces(MediaType.APPLICATION_JSON)
    public static class OfUser {

        private final TableReader table;
        private final PageRequests pages;

        OfUser(TableReader table, PageRequests pages) {
            this.table = table;
            this.pages = pages;
        }

        @GET
        @Operation(description = "The posts the user likes, newest like first.")
        public Uni<Page<LikeView>> listLikesOfUser(@PathParam("id") String id, @BeanParam PageParameters page) {
            return table.query(KeyPlan.USER_LIKES.query(Ids.require("id", id)), pages.of(page.limit(), page.cursor())).map(result -> result.map(LikeView::of));
        }
    }
}
