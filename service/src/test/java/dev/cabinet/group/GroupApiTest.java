package dev.cabinet.group;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createGroup;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class GroupApiTest {

    @Test
    void theCreatorBecomesTheAdminAndMembershipIsMirroredOnBothSides() {
        String creator = newUserId();
        register(creator, "Founder");
        String groupId = as(creator).body(Map.of("name", "Developers", "description", "People who code"))
                .post("/groups").then().statusCode(202)
                .body("type", equalTo("cabinet.group.created.v1"))
                .extract().path("id");

        awaitOk("/groups/" + groupId)
                .body("id", equalTo(groupId))
                .body("name", equalTo("Developers"))
                .body("description", equalTo("People who code"))
                .body("memberCount", equalTo(1))
                .body("adminCount", equalTo(1));
        awaitOk("/groups/" + groupId + "/members/" + creator)
                .body("groupName", equalTo("Developers"))
                .body("role", equalTo("admin"));
        given().get("/groups/" + groupId + "/members").then().statusCode(200)
                .body("items[0].userId", equalTo(creator))
                .body("items[0].userName", equalTo("Founder"))
                .body("items[0].role", equalTo("admin"));
        given().get("/users/" + creator + "/groups").then().statusCode(200)
                .body("items[0].groupId", equalTo(groupId))
                .body("items[0].groupName", equalTo("Developers"));
    }

    @Test
    void usersJoinOnceMembersArePagedToTheEndAndTheCountIsExact() {
        String admin = newUserId();
        register(admin, "Admin");
        String groupId = createGroup(admin, "Readers");
        Set<String> expected = new TreeSet<>(List.of(admin));
        for (int i = 0; i < 5; i++) {
            String user = newUserId();
            register(user, "Reader " + i);
            as(user).put("/groups/" + groupId + "/members/" + user).then().statusCode(202)
                    .body("type", equalTo("cabinet.group.member-joined.v1"));
            expected.add(user);
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/groups/" + groupId).then().body("memberCount", equalTo(6));
            assertEquals(6, allPages("/groups/" + groupId + "/members", 100).size());
        });
        String someone = expected.stream().filter(u -> !u.equals(admin)).findFirst().orElseThrow();
        // Joining again answers with the membership as it is and changes nothing.
        as(someone).put("/groups/" + groupId + "/members/" + someone).then().statusCode(200)
                .body("role", equalTo("member"));

        List<Object> members = allPages("/groups/" + groupId + "/members", 2, "userId");
        assertEquals(new ArrayList<>(expected), members, "every member once, in user id order");
        given().get("/groups/" + groupId).then().body("memberCount", equalTo(6));
        given().get("/groups/" + groupId + "/members/" + newUserId()).then().statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void aUsersGroupsArePagedToTheEnd() {
        String user = newUserId();
        register(user, "Joiner");
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            groups.add(createGroup(user, "Club " + i));
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(4,
                allPages("/users/" + user + "/groups", 100).size()));
        assertEquals(new ArrayList<>(new TreeSet<>(groups)), allPages("/users/" + user + "/groups", 3, "groupId"));
    }

    @Test
    void onlyAdminsRenameAddOthersAndChangeRoles() {
        String admin = newUserId();
        String member = newUserId();
        String outsider = newUserId();
        register(admin, "Boss");
        register(member, "Mem");
        register(outsider, "Out");
        String groupId = createGroup(admin, "Club");
        as(member).put("/groups/" + groupId + "/members/" + member).then().statusCode(202);
        awaitOk("/groups/" + groupId + "/members/" + member);

        as(member).body(Map.of("name", "Taken over")).patch("/groups/" + groupId).then().statusCode(403)
                .contentType("application/problem+json").body("detail", containsString("admin"));
        as(member).put("/groups/" + groupId + "/members/" + outsider).then().statusCode(403);
        as(member).body(Map.of("role", "admin")).put("/groups/" + groupId + "/members/" + member).then().statusCode(403);
        as(member).body(Map.of("role", "admin")).patch("/groups/" + groupId + "/members/" + member).then().statusCode(403);
        as(outsider).delete("/groups/" + groupId + "/members/" + member).then().statusCode(403);
        given().contentType("application/json").body(Map.of("name", "Anon")).patch("/groups/" + groupId).then()
                .statusCode(401);

        as(admin).put("/groups/" + groupId + "/members/" + outsider).then().statusCode(202);
        as(admin).body(Map.of("role", "admin")).patch("/groups/" + groupId + "/members/" + member).then().statusCode(202)
                .body("type", equalTo("cabinet.group.member-role-changed.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/groups/" + groupId).then().body("memberCount", equalTo(3)).body("adminCount", equalTo(2));
            given().get("/groups/" + groupId + "/members/" + member).then().body("role", equalTo("admin"));
            given().get("/groups/" + groupId + "/members/" + outsider).then().statusCode(200).body("role", equalTo("member"));
        });
        as(admin).body(Map.of("role", "owner")).patch("/groups/" + groupId + "/members/" + member).then().statusCode(400)
                .body("errors.field", hasItem("role"));
        as(admin).body(Map.of("name", "")).patch("/groups/" + groupId).then().statusCode(400);
        // a name of white space only is refused as on creation, though leaving the name out keeps it
        as(admin).body(Map.of("name", "   ")).patch("/groups/" + groupId).then().statusCode(400)
                .body("errors.field", hasItem("name"));
        as(admin).body(Map.of("name", "Anything")).patch("/groups/" + newUserId()).then().statusCode(404);
        as(admin).put("/groups/" + groupId + "/members/" + newUserId()).then().statusCode(404);
    }

    @Test
    void theLastAdminMustHandOverBeforeLeavingAndMembersLeaveOrAreRemoved() {
        String admin = newUserId();
        String first = newUserId();
        String second = newUserId();
        register(admin, "Chair");
        register(first, "First");
        register(second, "Second");
        String groupId = createGroup(admin, "Committee");
        as(first).put("/groups/" + groupId + "/members/" + first).then().statusCode(202);
        as(second).put("/groups/" + groupId + "/members/" + second).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/groups/" + groupId).then()
                .body("memberCount", equalTo(3)));

        as(admin).delete("/groups/" + groupId + "/members/" + admin).then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("last admin"));
        as(admin).body(Map.of("role", "member")).patch("/groups/" + groupId + "/members/" + admin).then().statusCode(409);

        as(first).delete("/groups/" + groupId + "/members/" + first).then().statusCode(202)
                .body("type", equalTo("cabinet.group.member-left.v1"));
        as(admin).delete("/groups/" + groupId + "/members/" + second).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/groups/" + groupId).then().body("memberCount", equalTo(1));
            given().get("/groups/" + groupId + "/members/" + first).then().statusCode(404);
            given().get("/users/" + second + "/groups").then().body("items.size()", equalTo(0));
        });
        as(first).delete("/groups/" + groupId + "/members/" + first).then().statusCode(404);
        // Alone in the group, the admin may leave.
        as(admin).delete("/groups/" + groupId + "/members/" + admin).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/groups/" + groupId).then()
                .body("memberCount", equalTo(0)).body("adminCount", equalTo(0)));
        // The next to join the empty group is its admin: a group with members is never left without one.
        as(second).put("/groups/" + groupId + "/members/" + second).then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/groups/" + groupId).then()
                .body("memberCount", equalTo(1)).body("adminCount", equalTo(1)));
        given().get("/groups/" + groupId + "/members/" + second).then().body("role", equalTo("admin"));
        as(second).body(Map.of("name", "Run by its newest member")).patch("/groups/" + groupId).then().statusCode(202);
    }

    @Test
    void renamesReachTheOtherSideOfEveryMembership() {
        String admin = newUserId();
        String member = newUserId();
        register(admin, "Old admin name");
        register(member, "Old member name");
        String groupId = createGroup(admin, "Old group name");
        as(member).put("/groups/" + groupId + "/members/" + member).then().statusCode(202);
        awaitOk("/groups/" + groupId + "/members/" + member);

        as(admin).body(Map.of("name", "New group name")).patch("/groups/" + groupId).then().statusCode(202)
                .body("type", equalTo("cabinet.group.renamed.v1"));
        as(member).body(Map.of("name", "New member name")).patch("/users/" + member).then().statusCode(202);

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/groups/" + groupId).then().body("name", equalTo("New group name"))
                    .body("description", equalTo("About Old group name"));
            given().get("/users/" + member + "/groups").then().body("items[0].groupName", equalTo("New group name"));
            given().get("/users/" + admin + "/groups").then().body("items[0].groupName", equalTo("New group name"));
            given().get("/groups/" + groupId + "/members/" + member).then().body("groupName", equalTo("New group name"));
            assertEquals(List.of("New member name", "Old admin name").stream().sorted().toList(),
                    allPages("/groups/" + groupId + "/members", 10, "userName").stream().map(String::valueOf).sorted()
                            .toList());
        });
    }

    @Test
    void creatingAGroupNeedsARegisteredUserAndAName() {
        as(newUserId()).body(Map.of("name", "Ghosts")).post("/groups").then().statusCode(409);
        String user = newUserId();
        register(user, "Namer");
        as(user).body(Map.of("description", "no name")).post("/groups").then().statusCode(400)
                .body("errors.field", hasItem("name"));
        given().get("/groups/" + newUserId()).then().statusCode(404).contentType("application/problem+json");
        given().get("/groups/bad%23id").then().statusCode(400);
    }
}
