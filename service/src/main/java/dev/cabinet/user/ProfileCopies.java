package dev.cabinet.user;

import io.smallrye.mutiny.Uni;

/**
 * A feature that keeps copies of users' names: after a profile changes, the user projector hands the new copy to every
 * implementation, which refreshes all of that user's copies it holds (paging through them by key condition).
 */
public interface ProfileCopies {

    Uni<Void> refresh(ProfileCopy profile);
}
