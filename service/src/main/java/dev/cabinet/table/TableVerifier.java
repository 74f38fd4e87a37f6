package dev.cabinet.table;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** Compares a described table with what the key plan expects and lists every difference in words an operator can act on. */
public final class TableVerifier {

    private TableVerifier() {
    }

    public static List<String> differences(TableDescription table) {
        List<String> problems = new ArrayList<>();
        if (!TableDefinition.keySchema(Index.TABLE).equals(table.keySchema())) {
            problems.add("the table's key schema is " + describe(table.keySchema()) + ", expected "
                    + describe(TableDefinition.keySchema(Index.TABLE)));
        }
        Map<String, GlobalSecondaryIndexDescription> gsis = table.globalSecondaryIndexes().stream()
                .collect(Collectors.toMap(GlobalSecondaryIndexDescription::indexName, Function.identity()));
        for (Index index : TableDefinition.secondaryIndexes()) {
            GlobalSecondaryIndexDescription gsi = gsis.get(index.indexName());
            if (gsi == null) {
                problems.add("GSI " + index.indexName() + " is missing (keys " + index.pkAttribute() + "/"
                        + index.skAttribute() + ")");
                continue;
            }
            if (!TableDefinition.keySchema(index).equals(gsi.keySchema())) {
                problems.add("GSI " + index.indexName() + " has keys " + describe(gsi.keySchema()) + ", expected "
                        + describe(TableDefinition.keySchema(index)));
            }
            Projection expected = TableDefinition.projection(index);
            Projection actual = gsi.projection();
            if (actual == null || actual.projectionType() != expected.projectionType()
                    || !new HashSet<>(actual.nonKeyAttributes()).containsAll(expected.nonKeyAttributes())) {
                problems.add("GSI " + index.indexName() + " projects " + actual + ", expected at least " + expected);
            }
        }
        return problems;
    }

    private static String describe(List<?> keySchema) {
        return keySchema.stream().map(Object::toString).collect(Collectors.joining(", ", "[", "]"));
    }
}
