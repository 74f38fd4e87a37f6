package dev.cabinet.user;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.Projector;
import dev.cabinet.projection.Reads;
import dev.cabinet.projection.StreamTarget;
import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.RefreshCopies;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.DeclaredCopy;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Values;
import dev.cabinet.user.UserEvent.UserErased;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Decides what user events do: the profile item is the stream's root; a registration, or a changed name or avatar,
 * refreshes every copy of the profile the key plan declares ({@link KeyPlan#COPIES}).
 */
@ApplicationScoped
public class UserProjector implements Projector<UserEvent> {

    @Override
    public List<EventType<? extends UserEvent>> eventTypes() {
        return List.of(UserEvent.REGISTERED, UserEvent.PROFILE_UPDATED, UserEvent.ERASED);
    }

    /**
     * A registration may find the profile: two PUTs of a new profile can both register it, and the second then
     * replaces the fields like an update.
     */
    @Override
    public StreamTarget target(UserEvent event) {
        return event instanceof UserRegistered ? StreamTarget.upserting(KeyPlan.USER_STREAM, event.userId())
                : StreamTarget.of(KeyPlan.USER_STREAM, event.userId());
    }

    @Override
    public WritePlan decide(UserEvent event, Reads reads) {
        Key profile = KeyPlan.USER_PROFILE.key(event.userId());
        if (reads.root().filter(root -> Items.has(root, Attributes.ERASED_AT)).isPresent()) {
            // An erased person stays erased: a change accepted just before the erasure was known changes nothing.
            return WritePlan.onRoot();
        }
        if (event instanceof UserErased e) {
            return erased(e, profile);
        }
        if (event instanceof UserRegistered e) {
            // Copies made before the registration (none live; a replay may bring a comment first) get this profile
            // when the batch ends; where the profile's item exists (a second registration, which replaces the fields
            // like an update, or a replayed post's count), its copies follow on the event's path.
            RefreshCopies walk = reads.root().isEmpty() ? RefreshCopies.whenBatchEnds(profile)
                    : new RefreshCopies(profile);
            return WritePlan.onRoot(KeyPlan.USER_PROFILE.write(Values.of(
                    Attributes.USER_ID, e.userId(),
                    Attributes.NAME, e.name(),
                    Attributes.EMAIL, e.email()))
                    .set(Attributes.AVATAR_URL, e.avatarUrl())
                    .setIfAbsent(Attributes.REGISTERED_AT, e.registeredAt())
                    .setIfAbsent(Attributes.POST_COUNT, 0))
                    .then(walk);
        }
        return updated((UserProfileUpdated) event, reads, profile);
    }

    /**
     * The profile keeps only what others' items need (its id, counts, and the placeholder for a name) and when the
     * person was erased; every copy of it follows, replacing their name, avatar and what they wrote.
     */
    private static WritePlan erased(UserErased e, Key profile) {
        return WritePlan.onRoot(KeyPlan.USER_PROFILE.write(Values.of(
                Attributes.USER_ID, e.userId(),
                Attributes.NAME, DeclaredCopy.ERASED))
                .set(Attributes.EMAIL, null)
                .set(Attributes.AVATAR_URL, null)
                .setIfAbsent(Attributes.ERASED_AT, e.erasedAt()))
                .then(new RefreshCopies(profile));
    }

    private static WritePlan updated(UserProfileUpdated e, Reads reads, Key profile) {
        Map<String, AttributeValue> root = reads.existingRoot();
        if (!Items.has(root, Attributes.REGISTERED_AT)) {
            return WritePlan.reject("user " + e.userId() + " is not registered");
        }
        ItemUpdate update = KeyPlan.USER_PROFILE.write(Values.of(
                Attributes.USER_ID, e.userId(),
                Attributes.NAME, e.name(),
                Attributes.EMAIL, e.email(),
                Attributes.AVATAR_URL, e.avatarUrl()));
        WritePlan plan = WritePlan.onRoot(update);
        return e.name() == null && e.avatarUrl() == null ? plan : plan.then(new RefreshCopies(profile));
    }
}
