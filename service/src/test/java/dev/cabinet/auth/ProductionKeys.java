package dev.cabinet.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * An identity provider's key pair for the production-mode test: the public key goes to the application through the
 * same variables a deployment sets ({@code CABINET_JWT_*}); the private key stays here to sign test tokens.
 */
public class ProductionKeys implements QuarkusTestResourceLifecycleManager {

    public static final String ISSUER = "https://issuer.cabinet.test";
    public static final String AUDIENCE = "cabinet";

    private static KeyPair pair;

    public static KeyPair pair() {
        return pair;
    }

    @Override
    public Map<String, String> start() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            pair = generator.generateKeyPair();
            Path publicKey = Files.createTempFile("cabinet-test-public-key", ".pem");
            publicKey.toFile().deleteOnExit();
            String publicKeyBase64 = Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
            Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                    + Base64.getMimeEncoder().encodeToString(pair.getPublic().getEncoded())
                    + "\n-----END PUBLIC KEY-----\n");
            return Map.of(
                    "CABINET_JWT_ISSUER", ISSUER,
                    "CABINET_JWT_PUBLIC_KEY_LOCATION", "file:" + publicKey,
                    "CABINET_JWT_AUDIENCE", AUDIENCE,
                    "CABINET_CURSOR_SECRET", "production-like-cursor-signing-key-for-the-it",
                    // The test harness also hands the launched jar smallrye-jwt's dev key and issuer (made for its Dev
                    // Services phase) as system properties, which outrank application.properties; these two entries
                    // replace them with the configured ones.
                    "mp.jwt.verify.publickey", publicKeyBase64,
                    "mp.jwt.verify.issuer", ISSUER,
                    // Production never creates the table unless told to; this test says so explicitly.
                    "cabinet.table.create-if-missing", "true");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        pair = null;
    }
}
