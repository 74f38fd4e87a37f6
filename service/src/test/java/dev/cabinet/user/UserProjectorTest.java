package dev.cabinet.user;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** User decisions, event type by event type: given the profile read, the plan (as its text). No store. */
class UserProjectorTest {

    private static final String T = "2026-01-31T12:00:00.000Z";
    private static final Optional<Map<String, AttributeValue>> REGISTERED = Optional.of(Map.of(
            "userId", AttributeValue.fromS("u1"), "registeredAt", AttributeValue.fromS(T)));

    private final UserProjector projector = new UserProjector();

    @Test
    void aRegistrationWritesTheProfileAndRefreshesItsCopies() {
        UserRegistered registered = new UserRegistered("u1", "Ada", "ada@example.org", null, T);
        assertEquals(StreamTarget.upserting(KeyPlan.USER_STREAM, "u1"), projector.target(registered));
        assertEquals(List.of(), projector.needs(registered));
        assertEquals("onRoot(USER#u1/PROFILE: SET type = \"UserProfile\", userId = \"u1\", name = \"Ada\", "
                + "email = \"ada@example.org\", registeredAt = if_not_exists(registeredAt, \"" + T + "\"), "
                + "postCount = if_not_exists(postCount, 0) REMOVE avatarUrl) then "
                + "[RefreshCopies[source=USER#u1 / PROFILE, whenBatchEnds=true]]",
                projector.decide(registered, new Reads(Optional.empty(), Map.of())).toString());
    }

    @Test
    void aSecondRegistrationReplacesTheFieldsAndItsCopiesFollowOnTheEventsPath() {
        UserRegistered again = new UserRegistered("u1", "Bea", "bea@example.org", null, T);
        assertEquals("onRoot(USER#u1/PROFILE: SET type = \"UserProfile\", userId = \"u1\", name = \"Bea\", "
                + "email = \"bea@example.org\", registeredAt = if_not_exists(registeredAt, \"" + T + "\"), "
                + "postCount = if_not_exists(postCount, 0) REMOVE avatarUrl) then "
                + "[RefreshCopies[source=USER#u1 / PROFILE, whenBatchEnds=false]]",
                projector.decide(again, new Reads(REGISTERED, Map.of())).toString());
    }

    @Test
    void aNewNameOrAvatarRefreshesTheCopies() {
        assertEquals("onRoot(USER#u1/PROFILE: SET type = \"UserProfile\", userId = \"u1\", name = \"Bea\") then "
                + "[RefreshCopies[source=USER#u1 / PROFILE, whenBatchEnds=false]]",
                projector.decide(new UserProfileUpdated("u1", "Bea", null, null), new Reads(REGISTERED, Map.of()))
                        .toString());
    }

    @Test
    void aNewEmailAloneCopiesNothing() {
        assertEquals("onRoot(USER#u1/PROFILE: SET type = \"UserProfile\", userId = \"u1\", email = \"b@example.org\") "
                + "then []",
                projector.decide(new UserProfileUpdated("u1", null, "b@example.org", null),
                        new Reads(REGISTERED, Map.of())).toString());
    }

    @Test
    void anUpdateOfAProfileThatOnlyHoldsCountersIsRejected() {
        assertEquals("reject(user u1 is not registered)", projector.decide(new UserProfileUpdated("u1", "Bea", null,
                null), new Reads(Optional.of(Map.of("postCount", AttributeValue.fromN("1"))), Map.of())).toString());
    }
}
