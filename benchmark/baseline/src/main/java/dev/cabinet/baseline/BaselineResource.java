package dev.cabinet.baseline;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The three endpoints a user would write by hand for Cabinet's paths: one GetItem, one Query, one record sent with
 * acks=all; no authentication, validation or event contract (what Cabinet adds is what the benchmark measures).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class BaselineResource {

    /** A new post as Cabinet's POST /posts takes it. */
    public record NewPost(String title, String body) {
    }

    @Inject
    DynamoDbAsyncClient dynamo;

    @Inject
    KafkaProducer<String, byte[]> producer;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "baseline.table")
    String table;

    @ConfigProperty(name = "baseline.topic")
    String topic;

    @ConfigProperty(name = "baseline.watched-topic")
    String watchedTopic;

    @GET
    @Path("users/{id}")
    public CompletionStage<Response> user(@PathParam("id") String id) {
        return dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s("USER#" + id), "sk", s("PROFILE"))))
                .thenApply(found -> found.hasItem() && !found.item().isEmpty()
                        ? Response.ok(plain(found.item())).build()
                        : Response.status(Response.Status.NOT_FOUND).build());
    }

    @GET
    @Path("users/{id}/posts")
    public CompletionStage<Map<String, Object>> posts(@PathParam("id") String id,
            @QueryParam("limit") @DefaultValue("20") int limit) {
        return dynamo.query(b -> b.tableName(table).keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s("USER#" + id), ":prefix", s("POST#")))
                .scanIndexForward(false).limit(limit))
                .thenApply(page -> Map.of("items", page.items().stream().map(BaselineResource::plain).toList()));
    }

    @POST
    @Path("posts")
    @Consumes(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> create(NewPost post) throws JsonProcessingException {
        return send(topic, post);
    }

    /**
     * The same, to the topic the naive projector follows: the hand-written path from a command to a written item,
     * whose freshness the benchmark compares with Cabinet's.
     */
    @POST
    @Path("watched-posts")
    @Consumes(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> createWatched(NewPost post) throws JsonProcessingException {
        return send(watchedTopic, post);
    }

    private CompletionStage<Response> send(String topic, NewPost post) throws JsonProcessingException {
        String id = UUID.randomUUID().toString();
        byte[] value = json.writeValueAsBytes(Map.of("postId", id, "title", post.title(), "body", post.body(),
                "createdAt", java.time.Instant.now().toString()));
        CompletableFuture<Response> answer = new CompletableFuture<>();
        producer.send(new ProducerRecord<>(topic, id, value), (metadata, failure) -> {
            if (failure == null) {
                answer.complete(Response.accepted(Map.of("id", id)).build());
            } else {
                answer.completeExceptionally(failure);
            }
        });
        return answer;
    }

    /** An item's attributes as plain JSON values (strings and numbers as DynamoDB keeps them). */
    static Map<String, Object> plain(Map<String, AttributeValue> item) {
        Map<String, Object> out = new java.util.TreeMap<>();
        item.forEach((name, value) -> out.put(name, value.s() != null ? value.s()
                : value.n() != null ? value.n() : value.bool() != null ? value.bool()
                        : value.hasL() ? List.copyOf(value.l()).toString() : value.toString()));
        return out;
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
