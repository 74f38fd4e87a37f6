package dev.cabinet.user;

import static dev.cabinet.decision.Rules.NOW;
import static dev.cabinet.decision.Rules.appends;
import static dev.cabinet.decision.Rules.conflict;
import static dev.cabinet.decision.Rules.notFound;
import static dev.cabinet.decision.Rules.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.cabinet.decision.Decision;
import dev.cabinet.decision.Refusal;
import dev.cabinet.user.UserDecisions.ChangeProfile;
import dev.cabinet.user.UserDecisions.EraseUser;
import dev.cabinet.user.UserDecisions.PutProfile;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserErased;
import dev.cabinet.user.UserEvent.UserRegistered;

/** The rules of profile commands and the registered-user guard other features' commands use; no Quarkus, no table. */
class UserDecisionsTest {

    private static final UserView ADA = new UserView("ada", "Ada Lovelace", "ada@example.org", null,
            "2026-05-01T08:00:00.000Z", 0, null, null);
    private static final UserView ERASED = new UserView("ada", "[erased]", null, null, "2026-05-01T08:00:00.000Z", 0,
            null, "2026-06-01T08:00:00.000Z");

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void followsTheRule(String sentence, Decision decided, Decision expected) {
        assertEquals(expected, decided, sentence);
    }

    static Stream<Arguments> rules() {
        ProfileRequest profile = new ProfileRequest("Ada King", "ada@example.org", null);
        ProfileChangeRequest rename = new ProfileChangeRequest("Ada King", null, null);
        Decision written = appends(UserEvent.PROFILE_UPDATED, new UserProfileUpdated("ada", "Ada King", null, null));
        return Stream.of(
                rule("a user without a profile registers it with PUT, now",
                        UserDecisions.putProfile(new PutProfile("ada", profile, NOW), null),
                        appends(UserEvent.REGISTERED, new UserRegistered("ada", "Ada King", "ada@example.org", null,
                                NOW))),
                rule("PUT on a registered profile registers it again: every field replaced (an avatar left out is"
                        + " removed), the registration time kept",
                        UserDecisions.putProfile(new PutProfile("ada", profile, NOW), ADA),
                        appends(UserEvent.REGISTERED, new UserRegistered("ada", "Ada King", "ada@example.org", null,
                                "2026-05-01T08:00:00.000Z"))),
                rule("PATCH changes only the fields given",
                        UserDecisions.changeProfile(new ChangeProfile("ada", rename), ADA),
                        written),
                rule("PATCH on a profile never registered is not found",
                        UserDecisions.changeProfile(new ChangeProfile("ada", rename), null),
                        notFound("user ada does not exist")),
                rule("a person erases a registered profile, now",
                        UserDecisions.erase(new EraseUser("ada", NOW), ADA),
                        appends(UserEvent.ERASED, new UserErased("ada", NOW))),
                rule("erasing a profile never registered is not found",
                        UserDecisions.erase(new EraseUser("ada", NOW), null),
                        notFound("user ada does not exist")),
                rule("an erased person is gone: erasing them again",
                        UserDecisions.erase(new EraseUser("ada", NOW), ERASED),
                        gone()),
                rule("an erased person is gone: registering again",
                        UserDecisions.putProfile(new PutProfile("ada", profile, NOW), ERASED),
                        gone()),
                rule("an erased person is gone: changing the profile",
                        UserDecisions.changeProfile(new ChangeProfile("ada", rename), ERASED),
                        gone()),
                rule("the registered-user guard lets a registered user's command decide",
                        Registration.required(true, "ada", "doing this", () -> written),
                        written),
                rule("the registered-user guard tells anyone else how to register first",
                        Registration.required(false, "ada", "doing this", () -> written),
                        conflict("register your profile with PUT /users/ada before doing this")));
    }

    private static Decision gone() {
        return Decision.refuse(Refusal.gone("user", "ada"));
    }
}
