package dev.cabinet.group;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.projection.ProjectionStore;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.Index;
import dev.cabinet.user.ProfileCopies;
import dev.cabinet.user.ProfileCopy;
import io.smallrye.mutiny.Uni;

/**
 * Keeps a user's name on the group side of their memberships after a rename: walks their groups (pattern 7's key
 * condition). Only the legacy user projector calls it; once that projector plans a RefreshCopies step, the declared
 * copy {@link dev.cabinet.table.KeyPlan#MEMBER_NAME} does this and this class goes.
 */
@ApplicationScoped
public class MemberNameCopies implements ProfileCopies {

    private final ProjectionStore store;

    MemberNameCopies(ProjectionStore store) {
        this.store = store;
    }

    @Override
    public Uni<Void> refresh(ProfileCopy profile) {
        KeyQuery groups = KeyQuery.of(Index.TABLE, GroupKeys.userPartition(profile.userId()),
                SortKeyCondition.beginsWith(GroupKeys.membershipPrefix()), false);
        return store.forEach(groups, membership -> store.update(profile.refresh(
                ItemUpdate.of(GroupKeys.member(Items.string(membership, Attributes.GROUP_ID), profile.userId()))
                        .set(Attributes.USER_NAME, profile.name()))))
                .replaceWithVoid();
    }
}
