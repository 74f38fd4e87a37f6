package dev.cabinet.erasure;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.SubjectKeyStore;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.kms.KmsAsyncClient;

/**
 * Each person's data key: created wrapped on the first value sealed for them, opened for whoever reads their events,
 * destroyed by their erasure. Clear keys are kept in memory for {@code cabinet.erasure.key-cache}; unwrapping (a KMS
 * call in production) happens once per key and instance within it.
 */
@ApplicationScoped
public class DataKeys {

    private final SubjectKeyStore store;
    private final ErasureConfig config;
    private final Instance<KmsAsyncClient> kms;
    private final AwsCallLog calls;
    private volatile KeyWrapping wrapping;
    private final Cache<String, SecretKey> keys;
    /**
     * The subjects this instance erased within the key cache's time: a key whose unwrapping was already under way when
     * it was destroyed is used for that call, but not remembered for the next.
     */
    private final Cache<String, Boolean> destroyed;

    DataKeys(SubjectKeyStore store, ErasureConfig config, Instance<KmsAsyncClient> kms, AwsCallLog calls) {
        this.store = store;
        this.calls = calls;
        this.config = config;
        this.kms = kms;
        this.keys = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(config.keyCache()).build();
        this.destroyed = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(config.keyCache()).build();
    }

    /** An incomplete wrapping configuration fails startup, not the first registration. */
    void checkWrapping(@Observes StartupEvent event) {
        if (config.seal()) {
            wrapping();
        }
    }

    /** The wrapping configured; fails with what to set when it is incomplete. */
    KeyWrapping wrapping() {
        KeyWrapping chosen = wrapping;
        if (chosen == null) {
            chosen = switch (config.wrapping()) {
                case LOCAL -> new LocalKeyWrapping(Base64.getDecoder().decode(config.localKey().orElseThrow(
                        () -> new IllegalStateException("cabinet.erasure.wrapping=local needs cabinet.erasure.local-key "
                                + "(32 bytes in base64)"))));
                case KMS -> new KmsKeyWrapping(kms.get(), config.kmsKeyId().orElseThrow(
                        () -> new IllegalStateException("cabinet.erasure.wrapping=kms needs cabinet.erasure.kms-key-id "
                                + "(CABINET_KMS_KEY_ID in production)")), calls);
            };
            wrapping = chosen;
        }
        return chosen;
    }

    /** The key to seal the subject's data with, created if they have none; fails with {@link ErasedSubjectException}. */
    public Uni<SecretKey> forSealing(String subjectId) {
        SecretKey known = keys.getIfPresent(subjectId);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return store.read(subjectId).chain(found -> found.isPresent() ? open(subjectId, found.get())
                .map(key -> key.orElseThrow(() -> new ErasedSubjectException(subjectId)))
                : create(subjectId));
    }

    private Uni<SecretKey> create(String subjectId) {
        KeyWrapping wrapper = wrapping();
        return wrapper.generate().chain(generated -> store.create(subjectId, generated.wrapped(), wrapper.name(),
                generated.wrappedUnder(), Timestamps.format(Instant.now()))
                .chain(existing -> existing.isEmpty() ? Uni.createFrom().item(remember(subjectId, generated.clear()))
                        : open(subjectId, existing.get()).map(key -> key.orElseThrow(
                                () -> new ErasedSubjectException(subjectId)))));
    }

    /** The keys of these subjects: empty for one who was erased (or never had one). */
    public Uni<Map<String, Optional<SecretKey>>> forOpening(Set<String> subjectIds) {
        List<Uni<Map.Entry<String, Optional<SecretKey>>>> lookups = subjectIds.stream().map(subjectId -> {
            SecretKey known = keys.getIfPresent(subjectId);
            Uni<Optional<SecretKey>> key = known != null ? Uni.createFrom().item(Optional.of(known))
                    : store.read(subjectId).chain(found -> found.isPresent() ? open(subjectId, found.get())
                            : Uni.createFrom().item(Optional.<SecretKey>empty()));
            return key.map(k -> Map.entry(subjectId, k));
        }).toList();
        if (lookups.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Uni.join().all(lookups).andFailFast().map(entries -> {
            Map<String, Optional<SecretKey>> found = new TreeMap<>();
            entries.forEach(entry -> found.put(entry.getKey(), entry.getValue()));
            return found;
        });
    }

    /** Destroys the subject's key (here at once; on other instances within the key cache's time). */
    public Uni<Void> destroy(String subjectId, String erasedAt) {
        destroyed.put(subjectId, Boolean.TRUE);
        keys.invalidate(subjectId);
        return store.destroy(subjectId, erasedAt).invoke(() -> keys.invalidate(subjectId));
    }

    /** Whether the subject's key was destroyed by an erasure. */
    public Uni<Boolean> isErased(String subjectId) {
        return store.read(subjectId).map(found -> found.filter(item -> Items.has(item, Attributes.ERASED_AT))
                .isPresent());
    }

    private Uni<Optional<SecretKey>> open(String subjectId, Map<String, AttributeValue> item) {
        AttributeValue wrapped = item.get(Attributes.WRAPPED_KEY);
        if (wrapped == null || wrapped.b() == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        String wrappedBy = Items.string(item, Attributes.WRAPPING);
        KeyWrapping wrapper = wrapping();
        if (!wrapper.opens(wrappedBy)) {
            return Uni.createFrom().failure(new IllegalStateException("the data key of " + subjectId + " is wrapped by "
                    + wrappedBy + ", not by " + wrapper.name() + " (cabinet.erasure.wrapping and its key)"));
        }
        return wrapper.unwrap(wrapped.b().asByteArray(), wrappedBy, Items.string(item, Attributes.WRAPPED_UNDER))
                .map(clear -> Optional.of(remember(subjectId, clear)));
    }

    private SecretKey remember(String subjectId, byte[] clear) {
        SecretKey key = new SecretKeySpec(clear, "AES");
        if (destroyed.getIfPresent(subjectId) == null) {
            keys.put(subjectId, key);
        }
        return key;
    }
}
