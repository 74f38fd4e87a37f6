package dev.cabinet.group;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A membership as the user side shows it: which group, with its current name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MembershipView(String groupId, String userId, String groupName, String role, String joinedAt) {

    static MembershipView of(Map<String, AttributeValue> item) {
        return new MembershipView(Items.string(item, "groupId"), Items.string(item, "userId"),
                Items.string(item, "groupName"), Items.string(item, "role"), Items.string(item, "joinedAt"));
    }

    boolean isAdmin() {
        return GroupRole.ADMIN.equals(role);
    }
}
