// What pgjdbc's DatabaseMetaData (Metabase's, DBeaver's, Tableau's JDBC catalogue) lists in schema bi.
// Usage: java -cp postgresql.jar Metadata.java <jdbc url> <user> <password>; prints tab-separated
// lines: "table", name, type, remarks; then "column", name, remarks for bi.deployments.
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;

public class Metadata {
  private static String clean(String s) {
    return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ');
  }

  public static void main(String[] args) throws Exception {
    try (Connection connection = DriverManager.getConnection(args[0], args[1], args[2])) {
      DatabaseMetaData meta = connection.getMetaData();
      try (ResultSet rs = meta.getTables(null, "bi", "%", new String[] {"TABLE", "VIEW"})) {
        while (rs.next()) {
          System.out.println("table\t" + rs.getString("TABLE_NAME") + "\t" + rs.getString("TABLE_TYPE") + "\t" + clean(rs.getString("REMARKS")));
        }
      }
      try (ResultSet rs = meta.getColumns(null, "bi", "deployments", "%")) {
        while (rs.next()) {
          System.out.println("column\t" + rs.getString("COLUMN_NAME") + "\t" + clean(rs.getString("REMARKS")));
        }
      }
    }
  }
}
