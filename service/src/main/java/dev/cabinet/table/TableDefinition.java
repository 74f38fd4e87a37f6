package dev.cabinet.table;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The CreateTable request derived from the {@link KeyPlan}: string keys pk/sk and the GSIs the item types use. */
public final class TableDefinition {

    private TableDefinition() {
    }

    /** The GSIs some item type has an entry in, in declaration order. */
    public static Set<Index> secondaryIndexes() {
        Set<Index> used = EnumSet.noneOf(Index.class);
        for (ItemType type : KeyPlan.ITEM_TYPES) {
            type.indexEntries().forEach(entry -> used.add(entry.index()));
        }
        return used;
    }

    public static CreateTableRequest createTableRequest(String tableName) {
        List<AttributeDefinition> attributes = new ArrayList<>(keyAttributes(Index.TABLE));
        List<GlobalSecondaryIndex> gsis = new ArrayList<>();
        for (Index index : secondaryIndexes()) {
            attributes.addAll(keyAttributes(index));
            gsis.add(GlobalSecondaryIndex.builder()
                    .indexName(index.indexName())
                    .keySchema(keySchema(index))
                    .projection(projection(index))
                    .build());
        }
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attributes)
                .keySchema(keySchema(Index.TABLE))
                .globalSecondaryIndexes(gsis)
                .build();
    }

    public static List<KeySchemaElement> keySchema(Index index) {
        return List.of(
                KeySchemaElement.builder().attributeName(index.pkAttribute()).keyType(KeyType.HASH).build(),
                KeySchemaElement.builder().attributeName(index.skAttribute()).keyType(KeyType.RANGE).build());
    }

    public static Projection projection(Index index) {
        return Projection.builder()
                .projectionType(ProjectionType.INCLUDE)
                .nonKeyAttributes(KeyPlan.projectedAttributes(index))
                .build();
    }

    private static List<AttributeDefinition> keyAttributes(Index index) {
        return List.of(
                AttributeDefinition.builder().attributeName(index.pkAttribute()).attributeType(ScalarAttributeType.S).build(),
                AttributeDefinition.builder().attributeName(index.skAttribute()).attributeType(ScalarAttributeType.S).build());
    }
}
