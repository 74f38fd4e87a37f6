package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.ProjectorLag;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.query.PageRequest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator rebuilds one user's profile from its events after it was damaged by hand: it comes back as the live
 * projection made it, with its postCount (the post streams') neither reset nor counted again, and the items of the
 * user's partition that other streams own (a post summary, a membership) and the copies of the name untouched.
 */
@QuarkusTest
class UserStreamRebuildTest {

    private static final Duration STORE_WAIT = Duration.ofSeconds(10);

    @Inject
    TableReader table;

    @Inject
    TableWriter writer;

    @Test
    void aDamagedProfileIsRebuiltFromItsEventsToWhatTheLiveProjectionMade() {
        String user = newUserId();
        register(user, "Ann");
        String post = createPost(user, "Mine");
        String group = createGroup(user, "Ann's");
        applied(waiting(user).body(Map.of("name", "Annie")).patch("/users/" + user));
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        await().atMost(PROJECTION_WAIT).until(() -> "Annie".equals(given().get("/posts/" + post).path("authorName")));
        given().get("/users/" + user).then().body("postCount", equalTo(1));
        Map<String, Map<String, AttributeValue>> live = items(user, post, group);

        // Damage by hand: the name, the registration time gone, an attribute no event wrote.
        done(writer.update(ItemUpdate.of(KeyPlan.USER_PROFILE.key(user)).set(Attributes.NAME, "Damaged")
                .set(Attributes.REGISTERED_AT, null).set("nickname", "by hand")));
        assertNotEquals(live, items(user, post, group), "the damage shows in the table");

        JsonPath done = asOperator().post("/admin/rebuilds/streams/" + Topics.USERS + "/" + user).then()
                .statusCode(200).extract().jsonPath();
        assertEquals(live, items(user, post, group), "every item as the live projection made it");
        assertEquals("user " + user, done.getString("stream"));
        assertEquals(2, done.getInt("events"), "registered, renamed");
        assertEquals(0, done.getInt("itemsDeleted"));
        assertEquals(1, done.getInt("itemsReset"), "the profile, emptied of the stream's attributes");
        assertEquals(1, done.getInt("items"));
        given().get("/users/" + user).then().statusCode(200).body("name", equalTo("Annie"))
                .body("postCount", equalTo(1));

        // A later event of the user is applied to the rebuilt stream as to any other, and reaches the copies.
        applied(waiting(user).body(Map.of("name", "Ann again")).patch("/users/" + user));
        await().atMost(PROJECTION_WAIT).until(() -> "Ann again".equals(given().get("/posts/" + post)
                .path("authorName")));
    }

    /** The user's partition (profile, post summary, membership), the post and the group's side of the membership. */
    private Map<String, Map<String, AttributeValue>> items(String user, String post, String group) {
        Map<String, Map<String, AttributeValue>> items = new TreeMap<>();
        KeyQuery query = KeyQuery.of(Index.TABLE, KeyPlan.USER_PROFILE.partition(user), SortKeyCondition.any(), false);
        for (Map<String, AttributeValue> item : done(table.query(query, new PageRequest(100, null))).items()) {
            items.put(Key.of(item).toString(), item);
        }
        for (Key key : new Key[] { KeyPlan.POST.key(post), KeyPlan.GROUP_MEMBER.key(group, user) }) {
            items.put(key.toString(), done(writer.read(key)).orElseThrow());
        }
        return items;
    }

    private static <T> T done(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
