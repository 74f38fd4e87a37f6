package dev.cabinet.erasure;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A person's value as the event log holds it: AES-256-GCM under the subject's data key, with a fresh 96-bit nonce per
 * value and the subject and field name as associated data (a sealed value moved to another field or person does not
 * open). On the wire it is a JSON object, {@code {"sealed":"aes-gcm-v1","subject":"ada","value":"<base64url>"}}, so
 * it can never be mistaken for text a person wrote, and a reader without the key sees whose it is and nothing more.
 * The JDK's own cipher: a field-level envelope needs nothing Tink or the AWS Encryption SDK would add here (their
 * message formats carry key ids and algorithm suites for one key per message; here one key per person is the point).
 */
public final class SealedValues {

    public static final String FORMAT = "aes-gcm-v1";
    static final String SEALED = "sealed";
    static final String SUBJECT = "subject";
    static final String VALUE = "value";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    /**
     * The JDK's DRBG (NIST SP 800-90A), seeded once: the platform default on Linux reads /dev/urandom under a lock for
     * every nonce, which commands on every event loop wait for.
     */
    private static final SecureRandom RANDOM = drbg();
    /** A cipher per thread, initialised again for each value: looking one up among the providers cost more than using it. */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(SealedValues::newCipher);

    private SealedValues() {
    }

    /** {@code clear} sealed under {@code key} for {@code subject}'s field {@code field}. */
    public static ObjectNode seal(String subject, String field, String clear, SecretKey key) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] sealed = run(Cipher.ENCRYPT_MODE, key, nonce, subject, field, clear.getBytes(StandardCharsets.UTF_8));
        byte[] value = ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array();
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put(SEALED, FORMAT);
        node.put(SUBJECT, subject);
        node.put(VALUE, Base64.getUrlEncoder().withoutPadding().encodeToString(value));
        return node;
    }

    /** Whether the JSON value is a sealed value (of any format: an unknown one must not pass for clear text). */
    public static boolean isSealed(JsonNode value) {
        return value != null && value.isObject() && value.has(SEALED);
    }

    /** Whose key a sealed value is under. */
    public static String subjectOf(JsonNode sealed) {
        JsonNode subject = sealed.path(SUBJECT);
        if (!subject.isTextual()) {
            throw new IllegalArgumentException("a sealed value names no subject");
        }
        return subject.asText();
    }

    /** The clear text of a sealed value of {@code field}; fails if the key is not the one it was sealed under. */
    public static String open(JsonNode sealed, String field, SecretKey key) {
        if (!FORMAT.equals(sealed.path(SEALED).asText())) {
            throw new IllegalArgumentException("sealed value of unknown format " + sealed.path(SEALED));
        }
        byte[] value;
        try {
            value = Base64.getUrlDecoder().decode(sealed.path(VALUE).asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a sealed value is not base64url");
        }
        if (value.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalArgumentException("a sealed value is too short");
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        byte[] nonce = new byte[NONCE_BYTES];
        buffer.get(nonce);
        byte[] rest = new byte[buffer.remaining()];
        buffer.get(rest);
        return new String(run(Cipher.DECRYPT_MODE, key, nonce, subjectOf(sealed), field, rest), StandardCharsets.UTF_8);
    }

    private static byte[] run(int mode, SecretKey key, byte[] nonce, String subject, String field, byte[] input) {
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD((subject + "\u0000" + field).getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("a sealed value of " + subject + "'s " + field
                    + " does not open with their key: " + e.getClass().getSimpleName());
        }
    }

    private static Cipher newCipher() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK offers no AES/GCM", e);
        }
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK offers no DRBG", e);
        }
    }
}
