package dev.cabinet.group;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.query.Page;
import dev.cabinet.query.PageRequest;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.query.TableReader;
import dev.cabinet.table.Index;
import io.smallrye.mutiny.Uni;

/** The group reads, one method per access pattern. */
@ApplicationScoped
public class GroupQueries {

    private final TableReader table;

    GroupQueries(TableReader table) {
        this.table = table;
    }

    /** Pattern 10: GetItem GROUP#g / METADATA. */
    public Uni<Optional<GroupView>> findGroup(String groupId) {
        return table.get(GroupKeys.metadata(groupId)).map(item -> item.map(GroupView::of));
    }

    /** Pattern 8: Query GROUP#g, begins_with(sk, 'USER#'). */
    public Uni<Page<MemberView>> listMembers(String groupId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.TABLE, GroupKeys.groupPartition(groupId),
                SortKeyCondition.beginsWith(GroupKeys.memberPrefix()), false);
        return table.query(query, page).map(result -> result.map(MemberView::of));
    }

    /** Pattern 9: GetItem USER#u / GROUP#g. */
    public Uni<Optional<MembershipView>> findMembership(String groupId, String userId) {
        return table.get(GroupKeys.membership(userId, groupId)).map(item -> item.map(MembershipView::of));
    }

    /** Pattern 7: Query USER#u, begins_with(sk, 'GROUP#'). */
    public Uni<Page<MembershipView>> listGroupsOfUser(String userId, PageRequest page) {
        KeyQuery query = KeyQuery.of(Index.TABLE, GroupKeys.userPartition(userId),
                SortKeyCondition.beginsWith(GroupKeys.membershipPrefix()), false);
        return table.query(query, page).map(result -> result.map(MembershipView::of));
    }

    /** PATCH /groups/{id} honours If-Match against the group's metadata item. */
    @Produces
    @Singleton
    static TaggedResource groupTags() {
        return TaggedPath.of("/groups/", GroupKeys::metadata);
    }
}
