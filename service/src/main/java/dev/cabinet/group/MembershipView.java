package dev.cabinet.group;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A membership as the user side shows it: which group, with its current name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MembershipView(String groupId, String userId, String groupName, String role, String joinedAt) {

    static MembershipView of(Map<String, AttributeValue> item) {
        return new MembershipView(Items.string(item, Attributes.GROUP_ID), Items.string(item, Attributes.USER_ID),
                Items.string(item, Attributes.GROUP_NAME), Items.string(item, Attributes.ROLE),
                Items.string(item, Attributes.JOINED_AT));
    }

    boolean isAdmin() {
        return GroupRole.ADMIN.equals(role);
    }
}
