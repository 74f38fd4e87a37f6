package dev.cabinet.rebuild;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.waiting;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.ProjectorLag;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.TableWriter;
import dev.cabinet.table.query.PageRequest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator rebuilds one customer's items from its events after they were damaged by hand: the profile and every
 * order come back exactly as the live projection made them, with their index entries (an order found by id and on its
 * day again), and an item the events never made is gone.
 */
@QuarkusTest
class CustomerStreamRebuildTest {

    private static final Duration STORE_WAIT = Duration.ofSeconds(10);
    private static final String DAY = "2026-08-0";

    @Inject
    TableReader table;

    @Inject
    TableWriter writer;

    private final String clerk = newUserId();

    @Test
    void aDamagedCustomerIsRebuiltFromItsEventsToWhatTheLiveProjectionMade() {
        String customer = "C" + Ids.newId();
        String first = "O" + Ids.newId();
        String second = "O" + Ids.newId();
        String third = "O" + Ids.newId();
        applied(waiting(clerk).body(Map.of("name", "First Name", "email", customer + "@example.com"))
                .put("/customers/" + customer));
        place(customer, first, DAY + "1T09:30:00Z", "99.99");
        place(customer, second, DAY + "2T10:00:00Z", "12.50");
        place(customer, third, DAY + "3T11:00:00Z", "5.00");
        applied(waiting(clerk).body(Map.of("status", "shipped")).patch("/orders/" + second));
        applied(waiting(clerk).body(Map.of("name", "Second Name", "email", customer + "@example.com"))
                .put("/customers/" + customer));
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        given().get("/orders/" + second).then().statusCode(200).body("status", equalTo("shipped"));
        Map<String, Map<String, AttributeValue>> live = items(customer);
        assertEquals(4, live.size(), "the profile and three orders: " + live.keySet());

        // Damage by hand, behind the projector's back: the profile, an order gone, a status, an order never placed.
        Key firstOrder = KeyPlan.ORDER.key(customer, DAY + "1", first);
        Key stray = KeyPlan.ORDER.key(customer, DAY + "4", "O" + Ids.newId());
        done(writer.update(ItemUpdate.of(KeyPlan.CUSTOMER.key(customer)).set(Attributes.NAME, "Damaged")));
        done(writer.delete(firstOrder));
        done(writer.update(ItemUpdate.of(KeyPlan.ORDER.key(customer, DAY + "2", second))
                .set(Attributes.STATUS, "cancelled")));
        done(writer.update(ItemUpdate.of(stray).set(KeyPlan.TYPE, KeyPlan.ORDER.name())
                .set(Attributes.STATUS, "placed")));
        given().get("/orders/" + first).then().statusCode(404);
        assertNotEquals(live, items(customer), "the damage shows in the table");

        JsonPath done = asOperator().post("/admin/rebuilds/streams/" + Topics.CUSTOMERS + "/" + customer).then()
                .statusCode(200).extract().jsonPath();
        assertEquals(live, items(customer), "every item as the live projection made it");
        assertEquals("customer " + customer, done.getString("stream"));
        assertEquals(6, done.getInt("events"), "registered twice, three orders placed, one status changed");
        assertEquals(4, done.getInt("itemsDeleted"), "the profile, two orders left, the stray one");
        assertEquals(0, done.getInt("itemsReset"));
        assertEquals(4, done.getInt("items"));
        assertEquals(1, done.getInt("rounds"));

        given().get("/customers/" + customer).then().statusCode(200).body("name", equalTo("Second Name"));
        given().get("/orders/" + first).then().statusCode(200).body("customerId", equalTo(customer))
                .body("total", equalTo("99.99"));
        given().get("/orders/" + second).then().statusCode(200).body("status", equalTo("shipped"));
        List<Object> onTheDay = allPages("/orders?date=" + DAY + "1", 100, "id");
        assertEquals(1, onTheDay.stream().filter(first::equals).count(), "on its day's shard again, once: " + onTheDay);

        // A later event of the customer is applied to the rebuilt stream as to any other.
        applied(waiting(clerk).body(Map.of("status", "delivered")).patch("/orders/" + second));
        given().get("/orders/" + second).then().body("status", equalTo("delivered"));
    }

    /**
     * An order the live projector rejected while the customer was half rebuilt (a rebuild that stopped midway deleted
     * the customer, and the order came before the operator ran it again) is decided again by the next rebuild: it
     * applies, and its command no longer says rejected.
     */
    @Test
    void anEventRejectedAgainstAHalfRebuiltStreamIsAppliedByTheNextRebuildAndNoLongerSaysRejected() {
        String customer = "C" + Ids.newId();
        String order = "O" + Ids.newId();
        applied(waiting(clerk).body(Map.of("name", "Gap", "email", customer + "@example.com"))
                .put("/customers/" + customer));
        String eventId = as(clerk).body(Map.of("orderId", order, "placedAt", DAY + "5T09:00:00Z", "total", "1.00"))
                .post("/customers/" + customer + "/orders").then().statusCode(202).extract().path("eventId");
        awaitOk("/orders/" + order);
        ProjectorLag.awaitCaughtUp(PROJECTION_WAIT);
        // What the live projector leaves of an order it rejected for want of its customer: no order, an outcome.
        done(writer.delete(KeyPlan.ORDER.key(customer, DAY + "5", order)));
        done(writer.update(ItemUpdate.of(KeyPlan.EVENT_OUTCOME.key(eventId), KeyPlan.EVENT_OUTCOME)
                .set(Attributes.EVENT_ID, eventId).set(Attributes.STATUS, "rejected")
                .set(Attributes.REASON, "customer " + customer + " does not exist")));
        given().get("/commands/" + eventId).then().statusCode(200).body("status", equalTo("rejected"));

        asOperator().post("/admin/rebuilds/streams/" + Topics.CUSTOMERS + "/" + customer).then().statusCode(200);
        given().get("/orders/" + order).then().statusCode(200).body("customerId", equalTo(customer));
        Response outcome = given().get("/commands/" + eventId);
        assertTrue(outcome.statusCode() == 404 || !"rejected".equals(outcome.path("status")),
                "the command of an applied order says " + outcome.asString());
    }

    private void place(String customer, String orderId, String placedAt, String total) {
        as(clerk).body(Map.of("orderId", orderId, "placedAt", placedAt, "total", total))
                .post("/customers/" + customer + "/orders").then().statusCode(202);
        awaitOk("/orders/" + orderId);
    }

    /** Every item of the customer's partition, by key. */
    private Map<String, Map<String, AttributeValue>> items(String customer) {
        Map<String, Map<String, AttributeValue>> items = new TreeMap<>();
        KeyQuery query = KeyQuery.of(Index.TABLE, KeyPlan.CUSTOMER.partition(customer), SortKeyCondition.any(), false);
        for (Map<String, AttributeValue> item : done(table.query(query, new PageRequest(100, null))).items()) {
            items.put(Key.of(item).toString(), item);
        }
        return items;
    }

    private static <T> T done(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
