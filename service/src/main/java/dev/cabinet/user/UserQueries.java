package dev.cabinet.user;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.cabinet.erasure.ErasedSubjectException;
import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableReader;
import io.smallrye.mutiny.Uni;

/** Reads of the user profile (access pattern 1), shared by the user resources and other features' commands. */
@ApplicationScoped
public class UserQueries {

    /**
     * Users known to be registered, so a command need not read the profile again for every post or comment; only
     * positive answers are kept (a user who registers a moment later must not be refused for long). Bounded, and each
     * entry expires, so memory stays flat. An erasure removes its user here at once; on another instance a command
     * of the erased user may pass this check until the entry expires, and its personal data is then sealed under no
     * key it can get ({@code DataKeys}) or refused there.
     */
    private final Cache<String, Boolean> registered = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterWrite(10, TimeUnit.MINUTES).build();
    /** People erased by this instance, as long as a registration is remembered (their erasure is projected by then). */
    private final Cache<String, Boolean> erasedHere = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterWrite(10, TimeUnit.MINUTES).build();
    private final TableReader table;

    UserQueries(TableReader table) {
        this.table = table;
    }

    /**
     * Whether the user has registered a profile: the table's answer the first time, remembered once it is yes. An
     * erased user's commands fail with {@link ErasedSubjectException} (a 410 problem).
     */
    public Uni<Boolean> isRegistered(String userId) {
        if (erasedHere.getIfPresent(userId) != null) {
            return Uni.createFrom().failure(new ErasedSubjectException(userId));
        }
        if (registered.getIfPresent(userId) != null) {
            return Uni.createFrom().item(true);
        }
        return findProfile(userId).map(profile -> {
            if (profile.filter(UserView::erased).isPresent()) {
                throw new ErasedSubjectException(userId);
            }
            profile.ifPresent(found -> registered.put(userId, Boolean.TRUE));
            return profile.isPresent();
        });
    }

    /**
     * Fails with {@link ErasedSubjectException} (a 410 problem) if the user was erased: the guard of commands that need
     * no registration (withdrawing a like, managing a group one is in) against a token that outlived its person.
     */
    public Uni<Void> requireNotErased(String userId) {
        return isRegistered(userId).replaceWithVoid();
    }

    /** Forgets that the user is registered: they were just erased. */
    void forget(String userId) {
        // Until the erasure is projected the profile still reads as registered: remember here that it is gone.
        erasedHere.put(userId, Boolean.TRUE);
        registered.invalidate(userId);
    }

    /** Pattern 1: GetItem USER#u / PROFILE. A profile item that only holds counters is not a registered user. */
    public Uni<Optional<UserView>> findProfile(String userId) {
        return table.get(KeyPlan.USER_PROFILE.key(userId))
                // A profile's item may hold only counts (another producer's post by someone never registered); one
                // erased so (another producer's erasure) reads as erased all the same, not as no one.
                .map(item -> item.filter(i -> Items.has(i, Attributes.REGISTERED_AT)
                        || Items.has(i, Attributes.ERASED_AT)).map(UserView::of));
    }

    /** PUT and PATCH /users/{id} honour If-Match against the profile item. */
    @Produces
    @Singleton
    static TaggedResource profileTags() {
        return TaggedPath.of("/users/", KeyPlan.USER_PROFILE::key);
    }
}
