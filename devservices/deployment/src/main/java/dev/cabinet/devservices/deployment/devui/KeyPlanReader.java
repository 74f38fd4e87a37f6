package dev.cabinet.devservices.deployment.devui;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the application's key plan ({@code dev.cabinet.table.KeyPlan}) at build time into plain maps and lists for the
 * Dev UI page: item types grouped by partition-key template and ordered by sort key, GSIs with what they overload, and
 * the access patterns. The extension cannot compile against the service, so it reads the key plan's public data by
 * name; a key plan it cannot read gives an error entry instead of failing dev mode.
 */
public final class KeyPlanReader {

    public static final String KEY_PLAN = "dev.cabinet.table.KeyPlan";

    private KeyPlanReader() {
    }

    /** The key plan's data, or a map with only {@code error} when the class is absent or not shaped as expected. */
    public static Map<String, Object> read(ClassLoader loader) {
        try {
            return read(Class.forName(KEY_PLAN, true, loader));
        } catch (ClassNotFoundException e) {
            return Map.of("error", "no " + KEY_PLAN + " in this application");
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Map.of("error", "the key plan could not be read: " + e);
        }
    }

    static Map<String, Object> read(Class<?> keyPlan) throws ReflectiveOperationException {
        List<Map<String, Object>> itemTypes = new ArrayList<>();
        for (Object type : (Collection<?>) keyPlan.getField("ITEM_TYPES").get(null)) {
            itemTypes.add(itemType(type));
        }
        List<Map<String, Object>> patterns = new ArrayList<>();
        for (Object pattern : (Collection<?>) keyPlan.getField("ACCESS_PATTERNS").get(null)) {
            patterns.add(accessPattern(pattern));
        }
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("typeAttribute", text(keyPlan.getField("TYPE").get(null)));
        plan.put("itemTypes", itemTypes);
        plan.put("partitions", partitions(itemTypes, null));
        plan.put("indexes", indexes(keyPlan, itemTypes));
        plan.put("accessPatterns", patterns);
        return plan;
    }

    private static Map<String, Object> itemType(Object type) throws ReflectiveOperationException {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", text(call(type, "name")));
        view.put("pk", text(call(call(type, "pk"), "text")));
        view.put("sk", text(call(call(type, "sk"), "text")));
        view.put("attributes", strings(call(type, "attributes")));
        view.put("notes", text(call(type, "notes")));
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Object entry : (Collection<?>) call(type, "indexEntries")) {
            Map<String, Object> index = new LinkedHashMap<>();
            index.put("index", text(call(entry, "index")));
            index.put("pk", text(call(call(entry, "pk"), "text")));
            index.put("sk", text(call(call(entry, "sk"), "text")));
            index.put("condition", text(call(entry, "condition")));
            index.put("projected", strings(call(entry, "projected")));
            entries.add(index);
        }
        view.put("indexEntries", entries);
        return view;
    }

    private static Map<String, Object> accessPattern(Object pattern) throws ReflectiveOperationException {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("number", call(pattern, "number"));
        view.put("name", text(call(pattern, "name")));
        view.put("endpoint", text(call(pattern, "endpoint")));
        view.put("index", text(call(pattern, "indexes")));
        view.put("keyCondition", text(call(pattern, "keyCondition")));
        List<String> types = new ArrayList<>();
        Object array = call(pattern, "itemTypes");
        Iterable<?> each = array.getClass().isArray() ? arrayList(array) : (Collection<?>) array;
        for (Object type : each) {
            types.add(text(call(type, "name")));
        }
        view.put("itemTypes", types);
        return view;
    }

    /**
     * Item types grouped by partition-key template (of the table, or of {@code index}), each group's types in the
     * order a Query returns them: by the sort key's constant prefix, then its template.
     */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> partitions(List<Map<String, Object>> itemTypes, String index) {
        Map<String, List<Map<String, Object>>> byPk = new TreeMap<>();
        for (Map<String, Object> type : itemTypes) {
            if (index == null) {
                byPk.computeIfAbsent((String) type.get("pk"), pk -> new ArrayList<>())
                        .add(member(type, (String) type.get("sk"), null));
                continue;
            }
            for (Map<String, Object> entry : (List<Map<String, Object>>) type.get("indexEntries")) {
                if (index.equals(entry.get("index"))) {
                    byPk.computeIfAbsent((String) entry.get("pk"), pk -> new ArrayList<>())
                            .add(member(type, (String) entry.get("sk"), (String) entry.get("condition")));
                }
            }
        }
        List<Map<String, Object>> partitions = new ArrayList<>();
        byPk.forEach((pk, members) -> {
            members.sort(Comparator.comparing((Map<String, Object> m) -> constantPrefix((String) m.get("sk")))
                    .thenComparing(m -> (String) m.get("sk")));
            partitions.add(Map.of("pk", pk, "itemTypes", members));
        });
        return partitions;
    }

    private static Map<String, Object> member(Map<String, Object> type, String sk, String condition) {
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("name", type.get("name"));
        member.put("sk", sk);
        if (condition != null) {
            member.put("condition", condition);
        }
        return member;
    }

    /** The text before a template's first placeholder: what sorts the template's keys among the others. */
    static String constantPrefix(String template) {
        int brace = template.indexOf('{');
        return brace < 0 ? template : template.substring(0, brace);
    }

    private static List<Map<String, Object>> indexes(Class<?> keyPlan, List<Map<String, Object>> itemTypes)
            throws ReflectiveOperationException {
        Method projected = keyPlan.getMethod("projectedAttributes",
                Class.forName(keyPlan.getPackageName() + ".Index", true, keyPlan.getClassLoader()));
        List<Map<String, Object>> indexes = new ArrayList<>();
        for (Object index : projected.getParameterTypes()[0].getEnumConstants()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("name", text(index));
            view.put("indexName", text(call(index, "indexName")));
            view.put("pkAttribute", text(call(index, "pkAttribute")));
            view.put("skAttribute", text(call(index, "skAttribute")));
            if (call(index, "indexName") != null) {
                view.put("partitions", partitions(itemTypes, text(index)));
                view.put("projected", strings(projected.invoke(null, index)));
            }
            indexes.add(view);
        }
        return indexes;
    }

    private static Object call(Object target, String method) throws ReflectiveOperationException {
        Method accessor = target.getClass().getMethod(method);
        if (!Modifier.isPublic(accessor.getDeclaringClass().getModifiers())) {
            accessor.setAccessible(true);
        }
        return accessor.invoke(target);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }

    private static List<String> strings(Object values) {
        List<String> texts = new ArrayList<>();
        for (Object value : (Iterable<?>) values) {
            texts.add(text(value));
        }
        return texts;
    }

    private static List<Object> arrayList(Object array) {
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < Array.getLength(array); i++) {
            list.add(Array.get(array, i));
        }
        return list;
    }
}
