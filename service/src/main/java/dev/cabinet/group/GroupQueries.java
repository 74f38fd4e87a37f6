package dev.cabinet.group;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.query.Page;
import dev.cabinet.table.query.PageRequest;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.KeyPlan;
import io.smallrye.mutiny.Uni;

/** The group reads, one method per access pattern. */
@ApplicationScoped
public class GroupQueries {

    private final TableReader table;

    GroupQueries(TableReader table) {
        this.table = table;
    }

    /** Pattern 10: GetItem of the group's metadata. */
    public Uni<Optional<GroupView>> findGroup(String groupId) {
        return table.get(KeyPlan.GROUP.key(groupId)).map(item -> item.map(GroupView::of));
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
