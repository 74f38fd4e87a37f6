package dev.cabinet.erasure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cabinet.user.UserEvent.UserRegistered;

/** Sealing and revealing a person's fields of event data, without a store: what the log holds and how it reads. */
class PersonalFieldsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecretKey ADA = key(1);
    private static final SecretKey OTHER = key(2);
    private static final UserRegistered REGISTERED = new UserRegistered("ada", "Ada Lovelace", "ada@example.org",
            "https://example.org/ada.png", "2026-01-31T12:00:00.000Z");

    @Test
    void onlyTheMarkedFieldsAreSealedAndTheyOpenUnderTheSubjectsKey() {
        ObjectNode sealed = PersonalFields.seal(JSON.valueToTree(REGISTERED), UserRegistered.class, "ada", ADA);
        assertEquals("ada", sealed.get("userId").asText());
        assertEquals("2026-01-31T12:00:00.000Z", sealed.get("registeredAt").asText());
        for (String field : new String[] {"name", "email", "avatarUrl"}) {
            assertTrue(SealedValues.isSealed(sealed.get(field)), field);
        }
        assertFalse(sealed.toString().contains("Lovelace"), sealed.toString());
        assertEquals(Set.of("ada"), PersonalFields.subjects(sealed));

        JsonNode revealed = PersonalFields.reveal(sealed, UserRegistered.class, Map.of("ada", Optional.of(ADA)));
        assertEquals(JSON.valueToTree(REGISTERED), revealed);
    }

    @Test
    void anErasedPersonsValuesReadAsThePlaceholderOrAbsentWhenOptional() {
        ObjectNode sealed = PersonalFields.seal(JSON.valueToTree(REGISTERED), UserRegistered.class, "ada", ADA);
        JsonNode revealed = PersonalFields.reveal(sealed, UserRegistered.class, Map.of("ada", Optional.empty()));
        assertEquals(PersonalFields.ERASED, revealed.get("name").asText());
        assertEquals(PersonalFields.ERASED, revealed.get("email").asText());
        assertTrue(revealed.get("avatarUrl").isNull());
        assertEquals("ada", revealed.get("userId").asText());
    }

    @Test
    void clearDataFromBeforeSealingOrAnotherProducerReadsAsItIs() {
        JsonNode clear = JSON.valueToTree(REGISTERED);
        assertEquals(Set.of(), PersonalFields.subjects(clear));
        assertEquals(clear, PersonalFields.reveal(clear, UserRegistered.class, Map.of()));
    }

    @Test
    void aSealedValueOpensOnlyUnderItsKeyForItsSubjectAndField() {
        ObjectNode name = SealedValues.seal("ada", "name", "Ada", ADA);
        assertEquals("Ada", SealedValues.open(name, "name", ADA));
        assertThrows(IllegalArgumentException.class, () -> SealedValues.open(name, "name", OTHER));
        assertThrows(IllegalArgumentException.class, () -> SealedValues.open(name, "email", ADA), "moved to a field");
        ObjectNode claimed = name.deepCopy().put("subject", "bob");
        assertThrows(IllegalArgumentException.class, () -> SealedValues.open(claimed, "name", ADA), "another's");
        ObjectNode unknown = name.deepCopy().put("sealed", "rot13");
        assertThrows(IllegalArgumentException.class, () -> SealedValues.open(unknown, "name", ADA));
        assertFalse(name.get("value").asText().equals(SealedValues.seal("ada", "name", "Ada", ADA).get("value").asText()),
                "a fresh nonce each time: equal names do not show as equal");
    }

    private static SecretKey key(int fill) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) fill);
        return new SecretKeySpec(bytes, "AES");
    }
}
