package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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
import io.restassured.response.Response;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator rebuilds one group's items from its events after they were damaged by hand: the metadata, its counts,
 * both sides of every membership (the group's name on the users' side, the members' names on the group's, a renamed
 * member's too) come back exactly as the live projection made them, an ended membership stays ended, and the
 * members' profiles are untouched.
 */
@QuarkusTest
class GroupStreamRebuildTest {

    private static final Duration STORE_WAIT = Duration.ofSeconds(10);

    @Inject
    TableReader table;

    @Inject
    TableWriter writer;

    @Test
    void aDamagedGroupIsRebuiltFromItsEventsToWhatTheLiveProjectionMade() {
        String admin = newUserId();
        String bob = newUserId();
        String cy = newUserId();
        register(admin, "Admin");
        register(bob, "Bob");
        register(cy, "Cy");
        String group = createGroup(admin, "Climbers");
        applied(waiting(bob).put("/groups/" + group + "/members/" + bob));
        applied(waiting(cy).put("/groups/" + group + "/members/" + cy));
        applied(waiting(admin).body(Map.of("name", "Hikers")).patch("/groups/" + group));
        applied(waiting(admin).body(Map.of("role", "admin")).patch("/groups/" + group + "/members/" + bob));
        applied(waiting(cy).delete("/groups/" + group + "/members/" + cy));
        applied(waiting(bob).body(Map.of("name", "Robert")).patch("/users/" + bob));   // refreshes the copy
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        await().atMost(PROJECTION_WAIT).until(() -> "Robert".equals(memberName(group, bob)));
        given().get("/groups/" + group).then().statusCode(200).body("name", equalTo("Hikers"))
                .body("memberCount", equalTo(2)).body("adminCount", equalTo(2));
        Map<String, Map<String, AttributeValue>> live = items(group, admin, bob, cy);

        // Damage by hand, behind the projector's back: the metadata's name and adminCount, a member gone, a count
        // shard, a copied group name, and the user side of the membership that ended, back.
        Map<String, AttributeValue> shard = live.values().stream()
                .filter(item -> KeyPlan.GROUP_COUNTER.matches(Key.of(item))).findFirst().orElseThrow();
        done(writer.update(ItemUpdate.of(KeyPlan.GROUP.key(group)).set(Attributes.NAME, "Damaged")
                .set(Attributes.ADMIN_COUNT, 7)));
        done(writer.delete(KeyPlan.GROUP_MEMBER.key(group, bob)));
        done(writer.update(ItemUpdate.of(Key.of(shard)).set(Attributes.MEMBER_COUNT, 40)));
        done(writer.update(ItemUpdate.of(KeyPlan.USER_GROUP.key(admin, group)).set(Attributes.GROUP_NAME, "Damaged")));
        done(writer.update(ItemUpdate.of(KeyPlan.USER_GROUP.key(cy, group)).set(KeyPlan.TYPE, KeyPlan.USER_GROUP.name())
                .set(Attributes.GROUP_ID, group).set(Attributes.USER_ID, cy).set(Attributes.GROUP_NAME, "Hikers")
                .set(Attributes.ROLE, "member")));
        given().get("/groups/" + group).then().body("name", equalTo("Damaged"));
        assertNotEquals(live, items(group, admin, bob, cy), "the damage shows in the table");

        JsonPath done = asOperator().post("/admin/rebuilds/streams/" + Topics.GROUPS + "/" + group).then()
                .statusCode(200).extract().jsonPath();
        assertEquals(live, items(group, admin, bob, cy), "every item as the live projection made it");
        assertEquals("group " + group, done.getString("stream"));
        assertEquals(6, done.getInt("events"), "created, two joined, renamed, a role changed, one left");
        assertEquals(1, done.getInt("rounds"));
        long owned = live.values().stream().map(Key::of).filter(key -> KeyPlan.GROUP.matches(key)
                || KeyPlan.GROUP_COUNTER.matches(key) || KeyPlan.GROUP_MEMBER.matches(key)
                || KeyPlan.USER_GROUP.matches(key)).count();
        assertEquals(owned, done.getLong("items"), "the metadata, its shards, two members on both sides");

        given().get("/groups/" + group).then().statusCode(200).body("name", equalTo("Hikers"))
                .body("memberCount", equalTo(2)).body("adminCount", equalTo(2));
        given().get("/users/" + bob + "/groups").then().body("items[0].groupName", equalTo("Hikers"))
                .body("items[0].role", equalTo("admin"));
        assertEquals(List.of(), allPages("/users/" + cy + "/groups", 10), "cy's membership stays ended");
        given().get("/users/" + cy).then().statusCode(200).body("name", equalTo("Cy"));
        assertEquals("Robert", memberName(group, bob), "the renamed member's current name on the group's side");

        // A later event of the group is applied to the rebuilt stream as to any other.
        applied(waiting(bob).delete("/groups/" + group + "/members/" + bob));
        given().get("/groups/" + group).then().body("memberCount", equalTo(1)).body("adminCount", equalTo(1));
    }

    /**
     * Users keep joining while the group is rebuilt: the live projector may apply a join to the half-rebuilt group or
     * reject it for finding none, and the rebuild then runs again with it. In the end every accepted member is there on
     * both sides, counted once, none left rejected; the API may refuse a join (404) while the group is being recreated.
     */
    @Test
    void membersJoiningDuringTheRebuildAreNeitherLostNorCountedTwice() throws Exception {
        String admin = newUserId();
        register(admin, "Busy admin");
        String group = createGroup(admin, "Busy");
        for (int i = 0; i < 20; i++) {
            String member = newUserId();
            register(member, "Before " + i);
            as(member).put("/groups/" + group + "/members/" + member).then().statusCode(202);
        }
        List<String> joiners = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            joiners.add(newUserId());
            register(joiners.get(i), "During " + i);
        }
        await().atMost(PROJECTION_WAIT).until(() -> given().get("/groups/" + group).jsonPath()
                .getInt("memberCount") == 21);

        ExecutorService joining = Executors.newSingleThreadExecutor();
        Future<Map<String, String>> during = joining.submit(() -> {
            Map<String, String> accepted = new TreeMap<>();
            for (String joiner : joiners) {
                Response answer = as(joiner).put("/groups/" + group + "/members/" + joiner);
                if (answer.statusCode() == 202) {
                    accepted.put(joiner, answer.path("eventId"));
                } else {
                    assertEquals(404, answer.statusCode(), answer.asString());   // the group was being recreated
                }
                Thread.sleep(15);
            }
            return accepted;
        });
        JsonPath done = asOperator().post("/admin/rebuilds/streams/" + Topics.GROUPS + "/" + group).then()
                .statusCode(200).extract().jsonPath();
        Map<String, String> accepted = during.get(60, TimeUnit.SECONDS);
        joining.shutdown();
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);

        int members = 21 + accepted.size();
        assertEquals(members, allPages("/groups/" + group + "/members", 100).size(),
                "rounds: " + done.getInt("rounds"));
        given().get("/groups/" + group).then().statusCode(200).body("memberCount", equalTo(members))
                .body("adminCount", equalTo(1));
        for (Map.Entry<String, String> joined : accepted.entrySet()) {
            assertNotEquals("rejected", given().get("/commands/" + joined.getValue()).path("status"),
                    joined.getValue() + " was applied in the end");
            given().get("/users/" + joined.getKey() + "/groups").then().body("items[0].groupId", equalTo(group));
        }
        // Once the log is quiet, another rebuild changes nothing.
        joiners.add(admin);
        Map<String, Map<String, AttributeValue>> settled = items(group, joiners.toArray(String[]::new));
        asOperator().post("/admin/rebuilds/streams/" + Topics.GROUPS + "/" + group).then().statusCode(200)
                .body("rounds", equalTo(1)).body("events", equalTo(members));
        assertEquals(settled, items(group, joiners.toArray(String[]::new)));
    }

    /** The member's name as the group's member list shows it. */
    private static Object memberName(String group, String user) {
        return allPages("/groups/" + group + "/members", 100).stream()
                .filter(member -> user.equals(member.get("userId")))
                .map(member -> member.get("userName")).findFirst().orElse(null);
    }

    /** Every item of the group's partition and of its (past) members' partitions, by key. */
    private Map<String, Map<String, AttributeValue>> items(String group, String... users) {
        Map<String, Map<String, AttributeValue>> items = new TreeMap<>();
        List<String> partitions = new ArrayList<>(List.of(KeyPlan.GROUP.partition(group)));
        for (String user : users) {
            partitions.add(KeyPlan.USER_PROFILE.partition(user));
        }
        for (String partition : partitions) {
            KeyQuery query = KeyQuery.of(Index.TABLE, partition, SortKeyCondition.any(), false);
            for (Map<String, AttributeValue> item : done(table.query(query, new PageRequest(100, null))).items()) {
                items.put(Key.of(item).toString(), item);
            }
        }
        return items;
    }

    private static <T> T done(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
