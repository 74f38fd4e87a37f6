package dev.cabinet.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.erasure.KeyWrapping.DataKey;
import dev.cabinet.iam.AwsCallLog;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsAsyncClient;

/**
 * Data keys wrapped by KMS, against a stand-in that speaks its protocol: each keeps the ARN KMS wrapped it under, so
 * the key configured under another name (its ARN instead of an alias), or an alias moved to a new key, still opens it.
 */
class KmsKeyWrappingTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final StubKms STUB = new StubKms();
    private static KmsAsyncClient kms;

    @BeforeAll
    static void start() {
        String endpoint = STUB.start().get("quarkus.kms.endpoint-override");
        kms = KmsAsyncClient.builder().endpointOverride(URI.create(endpoint)).region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    @AfterAll
    static void stop() {
        kms.close();
        STUB.stop();
    }

    @Test
    void aKeyMadeUnderAnAliasRecordsTheKeysArnAndOpensUnderAnyLaterName() {
        KeyWrapping byAlias = wrapping(StubKms.ALIAS);
        DataKey made = byAlias.generate().await().atMost(WAIT);
        assertEquals(StubKms.KEY_ARN, made.wrappedUnder(), "the ARN KMS answered with, not the alias asked by");
        // What the item records as its wrapping stays the configured name: the release before opens only that.
        assertEquals("kms:" + StubKms.ALIAS, byAlias.name());

        KeyWrapping byArn = wrapping(StubKms.KEY_ARN);
        assertTrue(byArn.opens(byAlias.name()));
        assertArrayEquals(made.clear(), byArn.unwrap(made.wrapped(), byAlias.name(), made.wrappedUnder())
                .await().atMost(WAIT));

        // The alias moved to a new key (the stand-in knows no "alias/cabinet-next"): the old keys name their own.
        KeyWrapping moved = wrapping("alias/cabinet-next");
        assertArrayEquals(made.clear(), moved.unwrap(made.wrapped(), byAlias.name(), made.wrappedUnder())
                .await().atMost(WAIT));
    }

    @Test
    void aKeyRecordedWithoutItsArnOpensUnderTheNameConfiguredThen() {
        // Data keys recorded before the ARN was: "kms:" and the key id as configured at the time.
        DataKey made = wrapping(StubKms.ALIAS).generate().await().atMost(WAIT);
        KeyWrapping byArn = wrapping(StubKms.KEY_ARN);
        String recordedBefore = "kms:" + StubKms.ALIAS;
        assertTrue(byArn.opens(recordedBefore));
        assertArrayEquals(made.clear(), byArn.unwrap(made.wrapped(), recordedBefore, null).await().atMost(WAIT));
    }

    @Test
    void aLocalWrappingAndKmsDoNotTakeEachOthersKeys() {
        LocalKeyWrapping local = new LocalKeyWrapping(Base64.getDecoder().decode(
                "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="));
        assertFalse(local.opens("kms:" + StubKms.KEY_ARN));
        assertFalse(wrapping(StubKms.KEY_ARN).opens(local.name()));
        assertThrows(RuntimeException.class, () -> wrapping("alias/unknown").generate().await().atMost(WAIT));
    }

    private static KeyWrapping wrapping(String keyId) {
        return new KmsKeyWrapping(kms, keyId, AwsCallLog.off());
    }
}
