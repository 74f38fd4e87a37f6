package dev.cabinet.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.client.api.PostCommandResourceApi;
import dev.cabinet.client.api.PostQueryResourceApi;
import dev.cabinet.client.api.UserCommandResourceApi;
import dev.cabinet.client.api.UserQueryResourceApi;
import dev.cabinet.client.model.CommandAnswer;
import dev.cabinet.client.model.NewPostRequest;
import dev.cabinet.client.model.PostView;
import dev.cabinet.client.model.ProfileRequest;
import dev.cabinet.client.model.UserView;

/**
 * The walk-through's first steps (the README's "Use it" and docs/walkthrough.md: register, write a post, publish it,
 * read it) through the client generated from docs/openapi.yaml, against the packaged service: the document's paths,
 * bodies, headers, answers and security are what the service serves. Commands send {@code Prefer: wait} (a documented header) so each answer comes once the
 * projection applied it, with no polling.
 */
class ReadmeFirstStepsIT {

    private static final String WAIT = "wait=10";

    private static CabinetProcess cabinet;

    @BeforeAll
    static void startCabinet() throws Exception {
        cabinet = CabinetProcess.start();
    }

    @AfterAll
    static void stopCabinet() throws Exception {
        if (cabinet != null) {
            cabinet.close();
        }
    }

    @Test
    void aUserRegistersWritesAPostPublishesItAndAnyoneReadsIt() throws Exception {
        ApiClient john = cabinet.client("john");
        ApiClient anyone = cabinet.client(null);

        CommandAnswer registered = new UserCommandResourceApi(john).putProfile("john",
                new ProfileRequest().name("John").email("john@example.com"), null, WAIT, null, null);
        assertEquals(CommandAnswer.OutcomeEnum.APPLIED, registered.getOutcome(), registered.toString());
        assertEquals("cabinet.user.registered.v1", registered.getType());
        UserView profile = new UserQueryResourceApi(anyone).getProfile("john", null, null);
        assertEquals("John", profile.getName());

        PostCommandResourceApi posts = new PostCommandResourceApi(john);
        String postId = posts.createPost(new NewPostRequest().title("My Post").body("..."), null, WAIT).getId();
        assertNotNull(postId);
        CommandAnswer published = posts.publishPost(postId, null, null, null, null);
        assertEquals("cabinet.post.published.v1", published.getType());

        // The other documented way to read one's writes: a read that waits for the command's position.
        PostView post = new PostQueryResourceApi(anyone).getPost(postId, null, null, published.getPosition(), null);
        assertEquals("My Post", post.getTitle());
        assertEquals("John", post.getAuthorName());
        assertEquals("published", post.getStatus());
        List<String> feed = new PostQueryResourceApi(anyone).listPosts(null, "10", "published", null).getItems()
                .stream().map(PostView::getId).toList();
        assertTrue(feed.contains(postId), feed.toString());
    }

    @Test
    void aCommandWithoutATokenIsAnUnauthorizedProblem() {
        ApiException refused = assertThrows(ApiException.class, () -> new PostCommandResourceApi(cabinet.client(null))
                .createPost(new NewPostRequest().title("Anonymous").body("..."), null, null));
        assertEquals(401, refused.getCode());
        assertTrue(refused.getResponseBody().contains("urn:cabinet:problem:unauthorized"), refused.getResponseBody());
    }
}
