package dev.cabinet.erasure;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.smallrye.mutiny.Uni;

/**
 * Wraps data keys with one AES-256 key from configuration (AES-GCM, a fresh nonce each): for dev mode and tests, which
 * have no KMS. Its name carries a fingerprint of the key, so a table wrapped under another key says so instead of
 * failing to open.
 */
final class LocalKeyWrapping implements KeyWrapping {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE_BYTES = 12;

    private final SecretKey key;
    private final String name;

    LocalKeyWrapping(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("cabinet.erasure.local-key must be 32 bytes in base64, not "
                    + key.length);
        }
        this.key = new SecretKeySpec(key, "AES");
        this.name = "local:" + fingerprint(key);
    }

    @Override
    public Uni<DataKey> generate() {
        byte[] clear = new byte[32];
        RANDOM.nextBytes(clear);
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] sealed = run(Cipher.ENCRYPT_MODE, nonce, clear);
        return Uni.createFrom().item(new DataKey(clear,
                ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array(), null));
    }

    @Override
    public Uni<byte[]> unwrap(byte[] wrapped, String wrappedBy, String wrappedUnder) {
        return Uni.createFrom().item(() -> run(Cipher.DECRYPT_MODE, Arrays.copyOf(wrapped, NONCE_BYTES),
                Arrays.copyOfRange(wrapped, NONCE_BYTES, wrapped.length)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean opens(String wrappedBy) {
        return wrappedBy == null || wrappedBy.equals(name);
    }

    private byte[] run(int mode, byte[] nonce, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(128, nonce));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a data key does not unwrap with cabinet.erasure.local-key (" + name + ")",
                    e);
        }
    }

    private static String fingerprint(byte[] key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key), 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
