package dev.cabinet.group;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.Shards;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A group as the API shows it; {@code memberCount} is the sum of the group's counter shards, read with it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GroupView(String id, String name, String description, String createdAt, long memberCount, long adminCount,
        @JsonIgnore String etag) implements Tagged {

    /** The group from its metadata item and the items read with it, among which its memberCount shards. */
    static GroupView of(Map<String, AttributeValue> item, List<Map<String, AttributeValue>> counters) {
        return new GroupView(Items.string(item, Attributes.GROUP_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.DESCRIPTION), Items.string(item, Attributes.CREATED_AT),
                Shards.sum(counters, KeyPlan.GROUP_COUNTER, Attributes.MEMBER_COUNT),
                Items.number(item, Attributes.ADMIN_COUNT), ETags.of(item));
    }
}
