package dev.cabinet.devservices.deployment.devui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.deployment.devui.sample.KeyPlan;

class KeyPlanReaderTest {

    @Test
    @SuppressWarnings("unchecked")
    void eachPartitionTemplateListsItsItemTypesInTheOrderAQueryReturnsThem() throws Exception {
        Map<String, Object> plan = KeyPlanReader.read(KeyPlan.class);

        List<Map<String, Object>> partitions = (List<Map<String, Object>>) plan.get("partitions");
        assertEquals(List.of("CUSTOMER#{customerId}", "METRICS#{resourceId}"),
                partitions.stream().map(p -> p.get("pk")).toList());
        List<Map<String, Object>> customer = (List<Map<String, Object>>) partitions.get(0).get("itemTypes");
        // ORDER#… sorts before PROFILE, so a Query of CUSTOMER#c returns the orders first
        assertEquals(List.of("Order", "Customer"), customer.stream().map(t -> t.get("name")).toList());
        assertEquals("type", plan.get("typeAttribute"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachGsiShowsWhatItOverloadsAndProjects() throws Exception {
        List<Map<String, Object>> indexes = (List<Map<String, Object>>) KeyPlanReader.read(KeyPlan.class)
                .get("indexes");

        assertEquals(List.of("TABLE", "GSI1"), indexes.stream().map(i -> i.get("name")).toList());
        Map<String, Object> gsi1 = indexes.get(1);
        assertEquals("gsi1pk", gsi1.get("pkAttribute"));
        assertEquals(List.of(Map.of("pk", "ORDER#{orderId}",
                "itemTypes", List.of(Map.of("name", "Order", "sk", "CUSTOMER#{customerId}", "condition", "always")))),
                gsi1.get("partitions"));
        assertEquals(List.of("orderId", "total", "type"), gsi1.get("projected"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void accessPatternsKeepTheirKeyConditionAndItemTypes() throws Exception {
        Map<String, Object> pattern = ((List<Map<String, Object>>) KeyPlanReader.read(KeyPlan.class)
                .get("accessPatterns")).get(0);

        assertEquals("Query CUSTOMER#c", pattern.get("keyCondition"));
        assertEquals("table", pattern.get("index"));
        assertEquals(List.of("Customer", "Order"), pattern.get("itemTypes"));
    }

    @Test
    void anApplicationWithoutAKeyPlanGetsAnExplanationInsteadOfAFailedBuild() {
        Map<String, Object> plan = KeyPlanReader.read(new ClassLoader(null) {
        });

        assertEquals(List.of("error"), List.copyOf(plan.keySet()));
        assertTrue(plan.get("error").toString().contains(KeyPlanReader.KEY_PLAN));
    }

    @Test
    void theConstantPrefixIsWhatPrecedesTheFirstPlaceholder() {
        assertEquals("ORDER#", KeyPlanReader.constantPrefix("ORDER#{orderDate}#{orderId}"));
        assertEquals("PROFILE", KeyPlanReader.constantPrefix("PROFILE"));
        assertEquals("", KeyPlanReader.constantPrefix("{timestamp}"));
    }
}
