package dev.cabinet.group;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.CountersConfig;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/** The group reads, one method per access pattern. */
@ApplicationScoped
public class GroupQueries {

    private final TableReader table;
    private final int counterShards;

    GroupQueries(TableReader table, CountersConfig counters) {
        this.table = table;
        this.counterShards = counters.shards();
    }

    /**
     * Pattern 10: the group's metadata and its memberCount shards (summed) in one Query, as one GetItem was before
     * memberCount was sharded: newest first, the metadata comes first (its sort key is the range's upper end).
     */
    public Uni<Optional<GroupView>> findGroup(String groupId) {
        String metadata = KeyPlan.GROUP.key(groupId).sk();
        PageRequest metadataAndShards = new PageRequest(counterShards + 1, null);
        return table.query(KeyPlan.GROUP_WITH_COUNTS.query(groupId), metadataAndShards).map(page -> {
            if (page.items().isEmpty() || !metadata.equals(Items.string(page.items().get(0), Key.SK))) {
                return Optional.empty();
            }
            return Optional.of(GroupView.of(page.items().get(0), page.items()));
        });
    }

    /** Pattern 8: the group's members. */
    public Uni<Page<MemberView>> listMembers(String groupId, PageRequest page) {
        return table.query(KeyPlan.GROUP_MEMBERS.query(groupId), page).map(result -> result.map(MemberView::of));
    }

    /** Pattern 9: GetItem of the user side of the membership. */
    public Uni<Optional<MembershipView>> findMembership(String groupId, String userId) {
        return table.get(KeyPlan.USER_GROUP.key(userId, groupId)).map(item -> item.map(MembershipView::of));
    }

    /** Pattern 7: the user's groups. */
    public Uni<Page<MembershipView>> listGroupsOfUser(String userId, PageRequest page) {
        return table.query(KeyPlan.USER_GROUPS.query(userId), page).map(result -> result.map(MembershipView::of));
    }

    /** PATCH /groups/{id} honours If-Match against the group's metadata item. */
    @Produces
    @Singleton
    static TaggedResource groupTags() {
        return TaggedPath.of("/groups/", KeyPlan.GROUP::key);
    }
}
